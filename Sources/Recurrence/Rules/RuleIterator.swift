import ICalendar

/// Walks the instances of one RRULE in wall-clock time, in order, lazily.
///
/// Follows RFC 5545 §3.3.10: the rule's frequency and INTERVAL pick a run of periods (years,
/// months, weeks, days, hours, minutes, seconds); within each period the BYxxx parts expand
/// or limit the candidate set, BYSETPOS picks from the sorted set, and COUNT / UNTIL end the
/// recurrence. Dates that do not exist (February 30th) are never produced. Instances are
/// wall-clock times in DTSTART's frame; turning them into instants is the series' job.
///
/// The rule alone decides the instances: DTSTART is not added when it does not match (the
/// series adds it, as §3.8.5.3 says). Instances before DTSTART are dropped.
///
/// Work is bounded: iteration stops after `RuleIterator.emptyPeriodLimit` periods in a row
/// without an instance, after year 9999, and when a period starts after `stopAfter`
/// (`exhausted` then tells why).
public struct RuleIterator: IteratorProtocol, Sendable {
    /// How iteration ended, when it has.
    public enum Ending: Sendable, Equatable {
        /// COUNT or UNTIL reached, or the calendar ran out (year 9999).
        case complete
        /// Past the `stopAfter` bound given by the caller.
        case bound
        /// Too many periods in a row produced nothing: the rule is (almost) empty.
        case gaveUp
    }

    /// Instances walked through (before a window, for COUNT rules that cannot jump) after which
    /// iteration stops and says so (`ending == .gaveUp`).
    public static let stepLimit = 20_000_000

    /// Periods in a row without an instance after which a rule is treated as empty.
    public static let emptyPeriodLimit = 1_000_000

    let rule: CompiledRule
    let startSeconds: Int64
    /// Stop when a period starts after this wall-clock second.
    let stopAfter: Int64
    /// True when a wall-clock time is past UNTIL.
    let isPastUntil: (@Sendable (Int64) -> Bool)?
    let count: Int?

    /// How iteration ended; nil while it goes on.
    public private(set) var ending: Ending?
    /// Instances produced so far (counted from DTSTART, even after a jump).
    private(set) var emitted = 0
    private var periodIndex: Int  // n-th period of the rule (step INTERVAL)
    private var days: [Int] = []
    private var times: [Int] = []
    private var selected: [Int] = []  // flat indices chosen by BYSETPOS, else empty
    private var cursor = 0
    private var total = 0
    private var emptyRun = 0
    private var steps = 0
    /// Periods examined so far: a measure of work, for tests that check the jump to a window.
    public private(set) var periodsVisited = 0
    private var weekMaskYear = Int.min
    private var weekMask: [Bool] = []
    private var weekMaskYear2 = Int.min
    private var weekMask2: [Bool] = []

    /// - Parameters:
    ///   - rule: the compiled rule.
    ///   - from: a wall-clock time the caller is interested in from; with no COUNT the iterator
    ///     jumps straight to the period holding it instead of walking from DTSTART. Instances
    ///     before it may still be produced (from the same period).
    ///   - stopAfter: a wall-clock time after which nothing is wanted; needed for unbounded rules.
    ///   - isPastUntil: compares a wall-clock time with UNTIL (which may be UTC while DTSTART is
    ///     zoned, so the series supplies the comparison). Nil when the rule has no UNTIL.
    public init(
        _ rule: CompiledRule, from: LocalDateTime? = nil, stopAfter: LocalDateTime? = nil,
        isPastUntil: (@Sendable (Int64) -> Bool)? = nil
    ) {
        self.rule = rule
        startSeconds = rule.start.secondsSinceEpoch
        self.stopAfter = min(
            stopAfter?.secondsSinceEpoch ?? Int64.max,
            LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59).secondsSinceEpoch)
        if let isPastUntil {
            self.isPastUntil = isPastUntil
        } else if let until = rule.rule.until {
            // Same frame as DTSTART: compare wall clocks (a DATE means its midnight, as dateutil reads it).
            let limit = until.local.secondsSinceEpoch
            self.isPastUntil = { $0 > limit }
        } else {
            self.isPastUntil = nil
        }
        count = rule.rule.count
        periodIndex = 0
        if let from {
            let target = max(0, Self.periodIndex(containing: from, rule: rule) - 1)
            if count == nil {
                periodIndex = target
            } else if rule.hasOneInstancePerPeriod {
                // Every period before the target held exactly one instance (DTSTART's own
                // slot), so COUNT can be carried over without walking them.
                periodIndex = min(target, rule.rule.count ?? 0)
                emitted = periodIndex
            }
        }
        loadPeriod()
    }

    /// The next instance's wall-clock time, in seconds since 1970-01-01T00:00:00 on that clock.
    public mutating func nextSeconds() -> Int64? {
        while ending == nil {
            if cursor < total {
                let flat = selected.isEmpty ? cursor : selected[cursor]
                cursor += 1
                let value = Int64(days[flat / times.count]) * 86_400 + Int64(times[flat % times.count])
                steps += 1
                if steps > Self.stepLimit { ending = .gaveUp; return nil }
                if value < startSeconds { continue }
                if value > stopAfter { ending = .bound; return nil }
                if let isPastUntil, isPastUntil(value) { ending = .complete; return nil }
                if let count, emitted >= count { ending = .complete; return nil }
                emitted += 1
                return value
            }
            periodIndex += 1
            loadPeriod()
        }
        return nil
    }

    /// The next instance's wall-clock time; nil once iteration has ended (`ending` says why).
    public mutating func next() -> LocalDateTime? {
        nextSeconds().map(LocalDateTime.init(secondsSinceEpoch:))
    }

    // MARK: Periods

    /// The index of the period (counting in INTERVAL steps from DTSTART's) that holds `time`.
    static func periodIndex(containing time: LocalDateTime, rule: CompiledRule) -> Int {
        let s = rule.start
        let units: Int
        switch rule.frequency {
        case .yearly: units = time.date.year - s.date.year
        case .monthly: units = (time.date.year - s.date.year) * 12 + time.date.month - s.date.month
        case .weekly:
            units = floorDiv(
                weekStartDay(time.date.daysSinceEpoch, rule.weekStart)
                    - weekStartDay(s.date.daysSinceEpoch, rule.weekStart), 7)
        case .daily: units = time.date.daysSinceEpoch - s.date.daysSinceEpoch
        case .hourly:
            units = Int(
                floorDiv64(
                    time.secondsSinceEpoch - s.secondsSinceEpoch + Int64(s.time.minute * 60 + s.time.second), 3600))
        case .minutely: units = Int(floorDiv64(time.secondsSinceEpoch - s.secondsSinceEpoch + Int64(s.time.second), 60))
        case .secondly: units = Int(time.secondsSinceEpoch - s.secondsSinceEpoch)
        }
        return floorDiv(units, rule.interval)
    }

    /// Fills `days`, `times` and the BYSETPOS selection for `periodIndex`, skipping empty
    /// periods (with the bounds above).
    private mutating func loadPeriod() {
        while true {
            cursor = 0
            total = 0
            periodsVisited += 1
            selected.removeAll(keepingCapacity: true)
            let periodStart = fillPeriod()
            if ending != nil { return }
            if periodStart > stopAfter {
                ending =
                    periodStart >= LocalDateTime(year: 9999, month: 12, day: 31).secondsSinceEpoch ? .complete : .bound
                return
            }
            total = days.count * times.count
            if total > 0 && !rule.setPositions.isEmpty {
                var picks: [Int] = []
                for p in rule.setPositions {
                    let i = p > 0 ? p - 1 : total + p
                    if i >= 0 && i < total { picks.append(i) }
                }
                selected = Array(Set(picks)).sorted()
                total = selected.count
            }
            if total > 0 { emptyRun = 0; return }
            emptyRun += 1
            if emptyRun >= Self.emptyPeriodLimit { ending = .gaveUp; return }
            periodIndex += 1
        }
    }

    /// Computes the candidate days and times of the current period; returns the wall-clock
    /// second the period starts at. For sub-daily rules whose day or hour is filtered out,
    /// advances `periodIndex` past the filtered stretch first.
    private mutating func fillPeriod() -> Int64 {
        let s = rule.start
        let n = periodIndex * rule.interval
        days.removeAll(keepingCapacity: true)
        switch rule.frequency {
        case .yearly:
            let year = s.date.year + n
            let first = LocalDate(year: year, month: 1, day: 1).daysSinceEpoch
            collectDays(from: first, count: LocalDate.daysIn(year: year), ordinalScope: .year(year))
            times = rule.timesOfDay
            return Int64(first) * 86_400
        case .monthly:
            let m0 = s.date.month - 1 + n
            let year = s.date.year + floorDiv(m0, 12)
            let month = m0 - floorDiv(m0, 12) * 12 + 1
            let first = LocalDate(year: year, month: month, day: 1).daysSinceEpoch
            if let months = rule.months, !months[month] {
                times = rule.timesOfDay
                return Int64(first) * 86_400
            }
            collectDays(from: first, count: LocalDate.daysIn(month: month, year: year), ordinalScope: .month)
            times = rule.timesOfDay
            return Int64(first) * 86_400
        case .weekly:
            let first = Self.weekStartDay(s.date.daysSinceEpoch, rule.weekStart) + n * 7
            collectDays(from: first, count: 7, ordinalScope: .none)
            times = rule.timesOfDay
            return Int64(first) * 86_400
        case .daily:
            let day = s.date.daysSinceEpoch + n
            collectDays(from: day, count: 1, ordinalScope: .none)
            times = rule.timesOfDay
            return Int64(day) * 86_400
        case .hourly, .minutely, .secondly:
            return fillSubDaily()
        }
    }

    private enum OrdinalScope { case none, month, year(Int) }

    /// Appends the days in `[first, first+count)` that pass every day filter.
    private mutating func collectDays(from first: Int, count: Int, ordinalScope: OrdinalScope) {
        var ordinalDays: Set<Int> = []
        if rule.hasOrdinals {
            switch ordinalScope {
            case .none: break
            case .month:
                ordinalDays = Self.ordinalDays(rule.ordinalWeekdays, from: first, count: count)
            case .year(let year):
                if let months = rule.months {
                    for m in 1...12 where months[m] {
                        let f = LocalDate(year: year, month: m, day: 1).daysSinceEpoch
                        ordinalDays.formUnion(
                            Self.ordinalDays(
                                rule.ordinalWeekdays, from: f, count: LocalDate.daysIn(month: m, year: year)))
                    }
                } else {
                    ordinalDays = Self.ordinalDays(rule.ordinalWeekdays, from: first, count: count)
                }
            }
        }
        var date = LocalDate(daysSinceEpoch: first)
        var info = DayInfo(number: first, date: date)
        for k in 0..<count {
            if k > 0 {
                // Step one day without a full civil conversion.
                info.number += 1
                info.weekday = (info.weekday + 1) % 7
                info.dayOfYear += 1
                if info.day < info.daysInMonth {
                    info.day += 1
                } else {
                    date = LocalDate(daysSinceEpoch: info.number)
                    info = DayInfo(number: info.number, date: date)
                }
            }
            guard rule.passesSimpleFilters(info) else { continue }
            if let weekdays = rule.weekdays {
                if !weekdays[info.weekday] && !ordinalDays.contains(info.number) { continue }
            }
            if !rule.weekNumbers.isEmpty && !weekNumberMatches(info) { continue }
            days.append(info.number)
        }
    }

    /// The days in `[first, first+count)` named by ordinal BYDAY entries (`2MO`, `-1FR`).
    static func ordinalDays(_ entries: [(weekday: Int, ordinal: Int)], from first: Int, count: Int) -> Set<Int> {
        var result: Set<Int> = []
        let firstWeekday = ((first % 7) + 7 + 3) % 7
        for (wd, n) in entries {
            if n > 0 {
                let day = first + (wd - firstWeekday + 7) % 7 + (n - 1) * 7
                if day < first + count { result.insert(day) }
            } else {
                let last = first + count - 1
                let lastWeekday = ((last % 7) + 7 + 3) % 7
                let day = last - (lastWeekday - wd + 7) % 7 + (n + 1) * 7
                if day >= first { result.insert(day) }
            }
        }
        return result
    }

    private mutating func weekNumberMatches(_ info: DayInfo) -> Bool {
        if info.year == weekMaskYear { return weekMask[info.dayOfYear - 1] }
        if info.year == weekMaskYear2 { return weekMask2[info.dayOfYear - 1] }
        weekMaskYear2 = weekMaskYear
        weekMask2 = weekMask
        weekMaskYear = info.year
        weekMask = WeekNumbers.mask(year: info.year, numbers: rule.weekNumbers, weekStart: rule.weekStart)
        return weekMask[info.dayOfYear - 1]
    }

    /// HOURLY, MINUTELY, SECONDLY: one period is one hour / minute / second; BYHOUR,
    /// BYMINUTE, BYSECOND at or above the frequency limit, those below expand.
    private mutating func fillSubDaily() -> Int64 {
        let s = rule.start
        let unit: Int64
        let base: Int64
        switch rule.frequency {
        case .hourly:
            unit = 3600
            base = s.secondsSinceEpoch - Int64(s.time.minute * 60 + s.time.second)
        case .minutely:
            unit = 60
            base = s.secondsSinceEpoch - Int64(s.time.second)
        default:
            unit = 1
            base = s.secondsSinceEpoch
        }
        let step = unit * Int64(rule.interval)
        while true {
            let periodStart = base + Int64(periodIndex) * step
            if periodStart > stopAfter { return periodStart }
            let dayNumber = Int(floorDiv64(periodStart, 86_400))
            let secondOfDay = Int(periodStart - Int64(dayNumber) * 86_400)
            let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
            // The day filtered out: jump to the first period of the next day.
            let info = DayInfo(number: dayNumber)
            var dayOK = rule.passesSimpleFilters(info)
            if dayOK, let weekdays = rule.weekdays, !weekdays[info.weekday] { dayOK = false }
            if dayOK && !rule.weekNumbers.isEmpty && !weekNumberMatches(info) { dayOK = false }
            var skipTo: Int64? = nil
            if !dayOK {
                skipTo = Int64(dayNumber + 1) * 86_400
            } else if let hm = rule.hourMask, !hm[hour] {
                skipTo = Int64(dayNumber) * 86_400 + Int64(hour + 1) * 3600
            } else if rule.frequency != .hourly, let mm = rule.minuteMask, !mm[minute] {
                skipTo = periodStart - Int64(second) + 60
            } else if rule.frequency == .secondly, let sm = rule.secondMask, !sm[second] {
                skipTo = periodStart + 1
            }
            if let skipTo {
                let periods = max(1, (skipTo - periodStart + step - 1) / step)
                periodIndex += Int(periods)
                emptyRun += Int(periods)
                if emptyRun >= Self.emptyPeriodLimit { ending = .gaveUp; return periodStart }
                continue
            }
            days.append(dayNumber)
            switch rule.frequency {
            case .hourly:
                times = []
                for m in rule.minutes { for sec in rule.seconds { times.append(hour * 3600 + m * 60 + sec) } }
            case .minutely:
                times = rule.seconds.map { hour * 3600 + minute * 60 + $0 }
            default:
                times = [secondOfDay]
            }
            return periodStart
        }
    }

    /// The day number of the week start (WKST) on or before `day`.
    static func weekStartDay(_ day: Int, _ weekStart: Int) -> Int {
        let weekday = ((day % 7) + 7 + 3) % 7
        return day - (weekday - weekStart + 7) % 7
    }
}

@inline(__always) func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@inline(__always) func floorDiv64(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
