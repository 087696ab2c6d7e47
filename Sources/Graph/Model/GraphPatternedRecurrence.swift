import ICalendar

/// `recurrence`: how a series master repeats, as a pattern and a range.
///
/// ```json
/// "recurrence": {"pattern": {"type": "relativeMonthly", "interval": 2, "daysOfWeek": ["thursday"], "index": "first"},
///                "range": {"type": "noEnd", "startDate": "2017-08-29"}}
/// ```
public struct GraphPatternedRecurrence: Hashable, Sendable, Codable {
    /// Which days repeat.
    public var pattern: GraphRecurrencePattern
    /// From when, and until when.
    public var range: GraphRecurrenceRange

    /// A recurrence of `pattern` over `range`.
    public init(pattern: GraphRecurrencePattern, range: GraphRecurrenceRange) {
        self.pattern = pattern
        self.range = range
    }

    /// The recurrence with only the fields its pattern and range types use, each at its
    /// documented default when absent: Graph answers every field (`"month": 0`,
    /// `"firstDayOfWeek": "sunday"` on a daily pattern) and refuses a write that sets one the
    /// type does not use. Two recurrences meaning the same series have equal normal forms.
    public var normalized: GraphPatternedRecurrence {
        var p = GraphRecurrencePattern(type: pattern.type, interval: pattern.interval ?? 1)
        switch pattern.type {
        case .daily: break
        case .weekly:
            p.daysOfWeek = pattern.daysOfWeek
            p.firstDayOfWeek = pattern.firstDayOfWeek ?? .sunday
        case .absoluteMonthly: p.dayOfMonth = pattern.dayOfMonth
        case .relativeMonthly:
            p.daysOfWeek = pattern.daysOfWeek
            p.index = pattern.index ?? .first
        case .absoluteYearly:
            p.dayOfMonth = pattern.dayOfMonth
            p.month = pattern.month
        case .relativeYearly:
            p.daysOfWeek = pattern.daysOfWeek
            p.month = pattern.month
            p.index = pattern.index ?? .first
        default: p = pattern
        }
        if let days = p.daysOfWeek { p.daysOfWeek = GraphDayOfWeek.allDays.filter(days.contains) }
        var r = GraphRecurrenceRange(type: range.type, startDate: range.startDate)
        switch range.type {
        case .endDate: r.endDate = range.endDate
        case .numbered: r.numberOfOccurrences = range.numberOfOccurrences
        case .noEnd: break
        default: r = range
        }
        r.recurrenceTimeZone = range.recurrenceTimeZone
        return GraphPatternedRecurrence(pattern: p, range: r)
    }
}

/// `recurrence.pattern`: the unit a series repeats in and which days of it.
public struct GraphRecurrencePattern: Hashable, Sendable, Codable {
    /// daily, weekly, absoluteMonthly, relativeMonthly, absoluteYearly, relativeYearly.
    public var type: GraphRecurrencePatternType
    /// Every how many units; 1 when absent.
    public var interval: Int?
    /// The month, 1 to 12 (yearly patterns).
    public var month: Int?
    /// The day of the month, 1 to 31 (absolute patterns).
    public var dayOfMonth: Int?
    /// The weekdays (weekly and relative patterns).
    public var daysOfWeek: [GraphDayOfWeek]?
    /// The day weeks start on, which decides which weeks an interval above 1 skips; Sunday
    /// when absent.
    public var firstDayOfWeek: GraphDayOfWeek?
    /// Which of the month's fitting days (relative patterns); `first` when absent.
    public var index: GraphWeekIndex?

    /// A pattern of `type`, every `interval` units; the other fields unset.
    public init(type: GraphRecurrencePatternType, interval: Int? = 1) {
        self.type = type
        self.interval = interval
    }
}

/// `recurrence.range`: when a series starts and how it ends.
public struct GraphRecurrenceRange: Hashable, Sendable, Codable {
    /// endDate, noEnd or numbered.
    public var type: GraphRecurrenceRangeType
    /// The first day the pattern is applied from, `YYYY-MM-DD`; Graph wants the date of the
    /// master's start.
    public var startDate: String?
    /// The last day an occurrence may fall on (inclusive), `YYYY-MM-DD`, in
    /// `recurrenceTimeZone`.
    public var endDate: String?
    /// How many occurrences in all (numbered).
    public var numberOfOccurrences: Int?
    /// The zone `startDate` and `endDate` are dates in; the start's zone when absent.
    public var recurrenceTimeZone: String?

    /// A range of `type` from `startDate`.
    public init(type: GraphRecurrenceRangeType, startDate: String? = nil) {
        self.type = type
        self.startDate = startDate
    }
}

/// `pattern.type`.
public struct GraphRecurrencePatternType: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// Every `interval` days.
    public static let daily: Self = "daily"
    /// On `daysOfWeek` every `interval` weeks.
    public static let weekly: Self = "weekly"
    /// On `dayOfMonth` every `interval` months.
    public static let absoluteMonthly: Self = "absoluteMonthly"
    /// On the `index` day of `daysOfWeek` every `interval` months.
    public static let relativeMonthly: Self = "relativeMonthly"
    /// On `dayOfMonth` of `month` every `interval` years.
    public static let absoluteYearly: Self = "absoluteYearly"
    /// On the `index` day of `daysOfWeek` in `month` every `interval` years.
    public static let relativeYearly: Self = "relativeYearly"
    /// Every documented value.
    public static let known: [Self] = [
        .daily, .weekly, .absoluteMonthly, .relativeMonthly, .absoluteYearly, .relativeYearly,
    ]
}

/// `range.type`.
public struct GraphRecurrenceRangeType: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// Until `endDate`, inclusive.
    public static let endDate: Self = "endDate"
    /// Without end.
    public static let noEnd: Self = "noEnd"
    /// `numberOfOccurrences` times.
    public static let numbered: Self = "numbered"
    /// Every documented value.
    public static let known: [Self] = [.endDate, .noEnd, .numbered]
}

/// A day of the week as Graph spells it: `monday`.
public struct GraphDayOfWeek: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// Sunday.
    public static let sunday: Self = "sunday"
    /// Monday.
    public static let monday: Self = "monday"
    /// Tuesday.
    public static let tuesday: Self = "tuesday"
    /// Wednesday.
    public static let wednesday: Self = "wednesday"
    /// Thursday.
    public static let thursday: Self = "thursday"
    /// Friday.
    public static let friday: Self = "friday"
    /// Saturday.
    public static let saturday: Self = "saturday"
    /// Sunday to Saturday, the order Graph lists them in.
    public static let allDays: [Self] = [.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday]
    /// Every documented value.
    public static var known: [Self] { allDays }

    /// The day `weekday` names.
    public init(_ weekday: Weekday) {
        self = Self.allDays[(weekday.isoIndex + 1) % 7]
    }

    /// The iCalendar weekday; nil for a keyword Graph does not document.
    public var weekday: Weekday? {
        Self.allDays.firstIndex(of: self).map { Weekday.allCases[($0 + 6) % 7] }
    }
}

/// `pattern.index`: which of the month's fitting days.
public struct GraphWeekIndex: GraphKeyword {
    /// The keyword's text.
    public let rawValue: String
    /// The keyword exactly as `text` spells it.
    public init(verbatim text: String) { rawValue = text }

    /// The first fitting day: ordinal 1.
    public static let first: Self = "first"
    /// The second: ordinal 2.
    public static let second: Self = "second"
    /// The third: ordinal 3.
    public static let third: Self = "third"
    /// The fourth: ordinal 4.
    public static let fourth: Self = "fourth"
    /// The last: ordinal -1.
    public static let last: Self = "last"
    /// Every documented value.
    public static let known: [Self] = [.first, .second, .third, .fourth, .last]

    /// The index as an iCalendar ordinal: 1 to 4, or -1 for `last`.
    public var ordinal: Int? {
        switch self {
        case .first: 1
        case .second: 2
        case .third: 3
        case .fourth: 4
        case .last: -1
        default: nil
        }
    }

    /// The index of an iCalendar ordinal (1 to 4, -1); nil for any other.
    public init?(ordinal: Int) {
        switch ordinal {
        case 1: self = .first
        case 2: self = .second
        case 3: self = .third
        case 4: self = .fourth
        case -1: self = .last
        default: return nil
        }
    }
}
