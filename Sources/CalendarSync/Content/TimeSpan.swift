import Foundation
import ICalendar

/// When an item takes place, roughly: from its first start to its last end, in seconds since
/// 1970 read as UTC (local and floating times are off by at most a day, which the window
/// check allows for). A nil bound is open: a series without an end, a task without dates.
public struct TimeSpan: Sendable, Hashable, Codable {
    /// The bounds, `Int64.min` for an open one: two optionals took twice the room, and a run
    /// holds a span for each item it knows (a takeover, every local one).
    private var lower: Int64
    private var upper: Int64
    private static let open = Int64.min

    /// The first start, in seconds since 1970; nil when open.
    public var start: Int64? {
        get { lower == Self.open ? nil : lower }
        set { lower = newValue ?? Self.open }
    }
    /// The last end, in seconds since 1970; nil when open (a series without an end).
    public var end: Int64? {
        get { upper == Self.open ? nil : upper }
        set { upper = newValue ?? Self.open }
    }

    /// A span between `start` and `end`, either open when nil.
    public init(start: Int64?, end: Int64?) {
        lower = start ?? Self.open
        upper = end ?? Self.open
    }

    private enum CodingKeys: String, CodingKey { case start, end }
    /// Reads `start` and `end`, each absent when open.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            start: try container.decodeIfPresent(Int64.self, forKey: .start),
            end: try container.decodeIfPresent(Int64.self, forKey: .end))
    }
    /// Writes `start` and `end`, leaving out an open bound.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(start, forKey: .start)
        try container.encodeIfPresent(end, forKey: .end)
    }

    /// A span that overlaps everything.
    public static let unbounded = TimeSpan(start: nil, end: nil)

    static let slack: Int64 = 86_400

    /// True when the span overlaps `window` (with a day's slack for time zones).
    public func overlaps(_ window: ClosedRange<Int64>) -> Bool {
        if let start, start - Self.slack > window.upperBound { return false }
        if let end, end + Self.slack < window.lowerBound { return false }
        return true
    }

    /// The span of a VCALENDAR's objects; unbounded when any of them has no start.
    static func of(_ calendar: Component) -> TimeSpan {
        var lo: Int64 = .max, hi: Int64 = .min
        var any = false
        for object in calendar.components
        where object.name.isName("VEVENT") || object.name.isName("VTODO") || object.name.isName("VJOURNAL") {
            guard let span = spanOf(object), let s = span.start, let e = span.end else { return .unbounded }
            lo = min(lo, s)
            hi = max(hi, e)
            any = true
        }
        return any ? TimeSpan(start: lo, end: hi) : .unbounded
    }

    static func seconds(_ value: DateTimeValue) -> Int64 { value.local.secondsSinceEpoch }

    static func spanOf(_ object: Component) -> TimeSpan? {
        // The first DTSTART, DUE, DTEND and DURATION, found in one pass over the properties
        // (a lookup by name upper-cased the name and copied the property it found, each time),
        // and whether there are rules and dates to read. Names are told apart by their length
        // first: a comparison of two strings that differ was a call each.
        let properties = object.properties
        var dtstart: Int?, due: Int?, dtend: Int?, durationAt: Int?
        var hasRules = false, hasDates = false
        for i in properties.indices {
            let name = properties[i].name
            switch name.utf8.count {
            case 7: if dtstart == nil, name == "DTSTART" { dtstart = i }
            case 3: if due == nil, name == "DUE" { due = i }
            case 5:
                if dtend == nil, name == "DTEND" { dtend = i }
                hasRules = hasRules || name == "RRULE"
                hasDates = hasDates || name == "RDATE"
            case 8: if durationAt == nil, name == "DURATION" { durationAt = i }
            default: continue
            }
        }
        // Dates are read without their TZID: a span counts in local time (`seconds(_:)`), the
        // same with a zone or without, and looking the TZID up in the parameters cost more than
        // the date. Only a rule's UNTIL is read in the start's zone.
        func dateTime(_ at: Int?) -> DateTimeValue? { at.flatMap { properties[$0].dateTime(tzid: nil) } }
        /// The TZID a start read without it would have had: a local time's, named and not empty.
        func zone(of start: DateTimeValue, at: Int) -> String? {
            guard start.form == .floating, let tzid = properties[at].tzid, !tzid.isEmpty else { return nil }
            return tzid
        }
        var startAt = dtstart, start = dateTime(dtstart)
        if start == nil { (startAt, start) = (due, dateTime(due)) }
        guard let startAt, let start else { return nil }
        let s = seconds(start)
        var length: Int64 = start.isDate ? 86_400 : 0
        if let end = dateTime(dtend) ?? dateTime(due) {
            length = max(length, seconds(end) - s)
        } else if let duration = durationAt.flatMap({ properties[$0].duration }) {
            length = max(
                length,
                Int64(duration.nominalDays) * 86_400
                    + Int64(
                        (duration.isNegative ? -1 : 1)
                            * (duration.hours * 3600 + duration.minutes * 60 + duration.seconds)))
        }
        var last = s
        // Rules and dates by index: `properties(named:)` made two arrays for every item.
        for i in properties.indices where hasRules && properties[i].name.isName("RRULE") {
            let rule = properties[i]
            // A rule without UNTIL (read in any case) has no end, however it reads: not parsed.
            guard rule.value.containsASCIICaseInsensitive("UNTIL"),
                let r = try? rule.recurrenceRule(tzid: zone(of: start, at: startAt)), let until = r.until
            else {
                return TimeSpan(start: s, end: nil)
            }
            last = max(last, seconds(until))
        }
        for i in properties.indices where hasDates && properties[i].name.isName("RDATE") {
            let rdate = properties[i]
            for d in rdate.dateTimes { last = max(last, seconds(d)) }
            for p in rdate.periods { last = max(last, seconds(p.start)) }
        }
        return TimeSpan(start: s, end: last + max(length, 0))
    }
}

/// A window of days around today (`-90d..+365d`), the part of a calendar a windowed pair syncs.
public enum SyncWindow {
    /// The window in seconds since 1970, nil when `text` is not `[-+]Nd..[-+]Nd`.
    public static func parse(_ text: String, now: Date = Date()) -> ClosedRange<Int64>? {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let from = days(parts[0]), let to = days(parts[1]), from <= to else { return nil }
        let today = Int64(now.timeIntervalSince1970)
        return (today + from * 86_400)...(today + to * 86_400)
    }

    static func days(_ text: String) -> Int64? {
        guard text.hasSuffix("d") else { return nil }
        return Int64(text.dropLast().replacingOccurrences(of: "+", with: ""))
    }
}
