import ICalendar

/// An RRULE prepared for expansion: its BYxxx parts turned into lookup tables, the defaults
/// RFC 5545 §3.3.10 takes from DTSTART filled in, and the time-of-day set precomputed.
///
/// Built once per series; iterators (`RuleIterator`) share it.
public struct CompiledRule: Sendable {
    /// The rule as parsed.
    public let rule: RecurrenceRule
    /// The wall-clock DTSTART the rule counts from.
    public let start: LocalDateTime

    let frequency: RecurrenceRule.Frequency
    let interval: Int
    let weekStart: Int  // 0 = Monday
    // Day filters (nil / empty = no constraint).
    let months: [Bool]?  // index 1...12
    let monthDaysPositive: [Bool]  // index 1...31
    let monthDaysNegative: [Bool]  // index 1...31, for -1...-31
    let hasMonthDays: Bool
    let yearDaysPositive: [Bool]  // 1...366
    let yearDaysNegative: [Bool]
    let hasYearDays: Bool
    let weekdays: [Bool]?  // 0...6, plain BYDAY entries (or ordinals ignored below MONTHLY)
    let ordinalWeekdays: [(weekday: Int, ordinal: Int)]
    let weekNumbers: [Int]
    // Time filters and sets.
    let hours: [Int]
    let minutes: [Int]
    let seconds: [Int]
    let hourMask: [Bool]?
    let minuteMask: [Bool]?
    let secondMask: [Bool]?
    let setPositions: [Int]
    /// The seconds-of-day of each instance within a day, for DAILY and coarser rules.
    let timesOfDay: [Int]

    /// Whether every period holds exactly DTSTART's slot: no BYxxx part at all, and a
    /// frequency whose periods always have that slot (not MONTHLY or YEARLY, where the 31st or
    /// February 29th can be missing).
    var hasOneInstancePerPeriod: Bool {
        let r = rule
        return r.byMonth.isEmpty && r.byMonthDay.isEmpty && r.byYearDay.isEmpty && r.byWeekNo.isEmpty && r.byDay.isEmpty
            && r.byHour.isEmpty && r.byMinute.isEmpty && r.bySecond.isEmpty && r.bySetPos.isEmpty
            && frequency != .monthly && frequency != .yearly
    }

    /// Whether the rule has a BYDAY that needs the period's month or year to resolve ordinals.
    var hasOrdinals: Bool { !ordinalWeekdays.isEmpty }

    /// The rule `rule` prepared to count from `start`.
    public init(_ rule: RecurrenceRule, start: LocalDateTime) {
        self.rule = rule
        self.start = start
        frequency = rule.frequency
        interval = max(1, rule.interval)
        weekStart = rule.weekStart.isoIndex
        let f = rule.frequency

        var byMonth = rule.byMonth
        var byMonthDay = rule.byMonthDay
        var byDay = rule.byDay
        // RFC 5545 §3.3.10: missing day parts are taken from DTSTART.
        if rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
            switch f {
            case .yearly:
                if byMonth.isEmpty { byMonth = [start.date.month] }
                byMonthDay = [start.date.day]
            case .monthly:
                byMonthDay = [start.date.day]
            case .weekly:
                byDay = [.init(start.date.weekday)]
            default: break
            }
        }
        months = byMonth.isEmpty ? nil : Self.mask(byMonth, size: 13)
        monthDaysPositive = Self.mask(byMonthDay.filter { $0 > 0 }, size: 32)
        monthDaysNegative = Self.mask(byMonthDay.filter { $0 < 0 }.map { -$0 }, size: 32)
        hasMonthDays = !byMonthDay.isEmpty
        yearDaysPositive = Self.mask(rule.byYearDay.filter { $0 > 0 }, size: 367)
        yearDaysNegative = Self.mask(rule.byYearDay.filter { $0 < 0 }.map { -$0 }, size: 367)
        hasYearDays = !rule.byYearDay.isEmpty
        var plain: [Int] = []
        var ordinals: [(Int, Int)] = []
        for entry in byDay {
            // Ordinals mean something only for MONTHLY and YEARLY; elsewhere the day alone counts.
            if let n = entry.ordinal, n != 0, f == .monthly || f == .yearly {
                ordinals.append((entry.weekday.isoIndex, n))
            } else {
                plain.append(entry.weekday.isoIndex)
            }
        }
        weekdays =
            plain.isEmpty ? (ordinals.isEmpty ? nil : Array(repeating: false, count: 7)) : Self.mask(plain, size: 7)
        ordinalWeekdays = ordinals
        weekNumbers = rule.byWeekNo

        hourMask = rule.byHour.isEmpty ? nil : Self.mask(rule.byHour, size: 24)
        minuteMask = rule.byMinute.isEmpty ? nil : Self.mask(rule.byMinute, size: 60)
        secondMask = rule.bySecond.isEmpty ? nil : Self.mask(rule.bySecond, size: 61)
        hours = rule.byHour.isEmpty ? [start.time.hour] : Array(Set(rule.byHour)).sorted()
        minutes = rule.byMinute.isEmpty ? [start.time.minute] : Array(Set(rule.byMinute)).sorted()
        // A leap second (60) names no instant a clock can show; it is left out.
        seconds = rule.bySecond.isEmpty ? [start.time.second] : Array(Set(rule.bySecond.filter { $0 < 60 })).sorted()
        setPositions = rule.bySetPos
        var times: [Int] = []
        for h in hours { for m in minutes { for s in seconds { times.append(h * 3600 + m * 60 + s) } } }
        timesOfDay = times
    }

    private static func mask(_ values: [Int], size: Int) -> [Bool] {
        var m = Array(repeating: false, count: size)
        for v in values where v >= 0 && v < size { m[v] = true }
        return m
    }

    /// Whether `day` passes the month, month-day, year-day and plain weekday filters (not the
    /// week-number or ordinal filters, which need the period).
    @inline(__always)
    func passesSimpleFilters(_ day: DayInfo) -> Bool {
        if let months, !months[day.month] { return false }
        if hasMonthDays && !monthDaysPositive[day.day] && !monthDaysNegative[day.daysInMonth - day.day + 1] {
            return false
        }
        if hasYearDays && !yearDaysPositive[day.dayOfYear] && !yearDaysNegative[day.daysInYear - day.dayOfYear + 1] {
            return false
        }
        return true
    }
}

/// The calendar facts of one day that the filters read.
struct DayInfo {
    var number: Int  // days since 1970-01-01
    var year: Int
    var month: Int
    var day: Int
    var weekday: Int  // 0 = Monday
    var dayOfYear: Int
    var daysInMonth: Int
    var daysInYear: Int

    init(number: Int) {
        let date = LocalDate(daysSinceEpoch: number)
        self.init(number: number, date: date)
    }

    init(number: Int, date: LocalDate) {
        self.number = number
        year = date.year
        month = date.month
        day = date.day
        weekday = ((number % 7) + 7 + 3) % 7
        let jan1 = LocalDate(year: date.year, month: 1, day: 1).daysSinceEpoch
        dayOfYear = number - jan1 + 1
        daysInMonth = LocalDate.daysIn(month: date.month, year: date.year)
        daysInYear = LocalDate.daysIn(year: date.year)
    }
}
