import ICalendar

extension RecurrenceRule {
    /// The Graph recurrence of this RRULE for a series starting at `start`, or the refusal
    /// naming the part Graph's six patterns cannot express.
    ///
    /// What maps: DAILY (with BYDAY and no INTERVAL, as weekly); WEEKLY with plain weekdays;
    /// MONTHLY on one day 1–28, on `-1` (the month's last day), on the last of `28,…,d` (day
    /// d cut to the month's end), on one numbered weekday (`2TH`, `-1FR`) or on a weekday set
    /// with one BYSETPOS in 1–4 or -1; YEARLY with one BYMONTH likewise (February 29th only as
    /// `BYMONTHDAY=28,29;BYSETPOS=-1`). COUNT is `numbered`, UNTIL an `endDate`: the last
    /// date whose occurrence starts at or before UNTIL, in the start's zone.
    /// - Parameters:
    ///   - start: DTSTART, which must be the rule's first occurrence as Graph counts it.
    ///   - zone: the start's zone, for UNTIL; nil for an all-day series.
    ///   - recurrenceTimeZone: the Windows name the range is dated in.
    /// - Throws: `GraphMappingError` (`.unsupportedRecurrence`) naming the part and why.
    func graphRecurrence(start: DateTimeValue, zone: (any ZoneRules)?, recurrenceTimeZone: String?) throws
        -> GraphPatternedRecurrence
    {
        if let other = otherParts.first(where: { !($0.name == "RSCALE" && $0.value.uppercased() == "GREGORIAN") }) {
            throw GraphMappingError.recurrence("\(other.name)=\(other.value)", "Graph's patterns have no such part")
        }
        switch frequency {
        case .secondly, .minutely, .hourly:
            throw GraphMappingError.recurrence(
                "FREQ=\(frequency.rawValue)", "Graph repeats by days at the finest, at the start's time of day")
        default: break
        }
        for (name, values) in [("BYSECOND", bySecond), ("BYMINUTE", byMinute), ("BYHOUR", byHour)] where !values.isEmpty
        {
            throw GraphMappingError.recurrence(
                "\(name)=\(Self.list(values))", "Graph repeats only at the start's time of day")
        }
        if !byWeekNo.isEmpty {
            throw GraphMappingError.recurrence("BYWEEKNO=\(Self.list(byWeekNo))", "Graph has no week numbers")
        }
        if !byYearDay.isEmpty {
            throw GraphMappingError.recurrence("BYYEARDAY=\(Self.list(byYearDay))", "Graph has no days of the year")
        }
        if byMonth.count > 1 {
            throw GraphMappingError.recurrence(
                "BYMONTH=\(Self.list(byMonth))", "a Graph pattern falls in one month of the year")
        }
        let pattern = try graphPattern(start: start.date)
        var range: GraphRecurrenceRange
        if let count {
            range = GraphRecurrenceRange(type: .numbered, startDate: start.date.isoString)
            range.numberOfOccurrences = count
        } else if let until {
            let last = Self.lastDate(until: until, start: start, zone: zone)
            guard last >= start.date else {
                throw GraphMappingError.recurrence("UNTIL=\(until)", "it ends before DTSTART")
            }
            range = GraphRecurrenceRange(type: .endDate, startDate: start.date.isoString)
            range.endDate = last.isoString
        } else {
            range = GraphRecurrenceRange(type: .noEnd, startDate: start.date.isoString)
        }
        range.recurrenceTimeZone = recurrenceTimeZone
        let recurrence = GraphPatternedRecurrence(pattern: pattern, range: range)
        guard recurrence.occurrenceDates(limit: 1).first == start.date else {
            throw GraphMappingError.recurrence(
                "DTSTART",
                "\(start.date.isoString) is not an occurrence of the rule: RFC 5545 counts it, Graph skips it")
        }
        return recurrence
    }

    private func graphPattern(start: LocalDate) throws -> GraphRecurrencePattern {
        let days = byDay
        switch frequency {
        case .daily:
            try refuse(byMonth: "FREQ=DAILY")
            guard byMonthDay.isEmpty, bySetPos.isEmpty else {
                throw GraphMappingError.recurrence(
                    byMonthDay.isEmpty ? "BYSETPOS=\(Self.list(bySetPos))" : "BYMONTHDAY=\(Self.list(byMonthDay))",
                    "a daily Graph pattern takes every n-th day")
            }
            if days.isEmpty { return GraphRecurrencePattern(type: .daily, interval: interval) }
            guard interval == 1 else {
                throw GraphMappingError.recurrence(
                    "INTERVAL=\(interval)", "Graph has no every n-th day limited to weekdays")
            }
            return try weekly(days, interval: 1)
        case .weekly:
            try refuse(byMonth: "FREQ=WEEKLY")
            guard byMonthDay.isEmpty, bySetPos.isEmpty else {
                throw GraphMappingError.recurrence(
                    byMonthDay.isEmpty ? "BYSETPOS=\(Self.list(bySetPos))" : "BYMONTHDAY=\(Self.list(byMonthDay))",
                    "a weekly Graph pattern takes whole weekdays")
            }
            return try weekly(days.isEmpty ? [WeekdayNumber(start.weekday)] : days, interval: interval)
        case .monthly:
            try refuse(byMonth: "FREQ=MONTHLY")
            var p = try monthDays(start: start, days: days, absolute: .absoluteMonthly, relative: .relativeMonthly)
            p.interval = interval
            return p
        default:  // yearly
            guard let month = byMonth.first ?? (days.isEmpty && byMonthDay.isEmpty ? start.month : nil) else {
                throw GraphMappingError.recurrence(
                    "FREQ=YEARLY without BYMONTH", "a yearly Graph pattern falls in one month, named")
            }
            var p = try monthDays(start: start, days: days, absolute: .absoluteYearly, relative: .relativeYearly)
            p.month = month
            p.interval = interval
            if p.type == .absoluteYearly, let day = p.dayOfMonth,
                day > LocalDate.daysIn(month: month, year: 2000)
            {
                throw GraphMappingError.recurrence("BYMONTHDAY=\(day)", "month \(month) has no day \(day)")
            }
            if p.type == .absoluteYearly, month == 2, p.dayOfMonth == 29, bySetPos.isEmpty {
                throw GraphMappingError.recurrence(
                    "BYMONTH=2;BYMONTHDAY=29", "Graph moves February 29th to the 28th in other years, RRULE skips them")
            }
            return p
        }
    }

    private func refuse(byMonth frequencyName: String) throws {
        if !byMonth.isEmpty {
            throw GraphMappingError.recurrence(
                "BYMONTH=\(Self.list(byMonth))", "Graph has no month filter on a \(frequencyName) series")
        }
    }

    private func weekly(_ days: [WeekdayNumber], interval: Int) throws -> GraphRecurrencePattern {
        if let numbered = days.first(where: { $0.ordinal != nil }) {
            throw GraphMappingError.recurrence("BYDAY=\(numbered)", "a weekly Graph pattern takes unnumbered weekdays")
        }
        var p = GraphRecurrencePattern(type: .weekly, interval: interval)
        p.daysOfWeek = Self.graphDays(days)
        p.firstDayOfWeek = GraphDayOfWeek(weekStart)
        return p
    }

    /// A monthly (or yearly, within its month) pattern: one day of the month, the month's last
    /// day, the last of `28,…,d`, or a numbered or BYSETPOS-picked weekday.
    private func monthDays(
        start: LocalDate, days: [WeekdayNumber], absolute: GraphRecurrencePatternType,
        relative: GraphRecurrencePatternType
    ) throws -> GraphRecurrencePattern {
        if days.isEmpty {
            let monthDays = byMonthDay.isEmpty ? [start.day] : byMonthDay
            if !bySetPos.isEmpty {
                // The last of 28…d: day d, or the month's last day when it is shorter.
                if bySetPos == [-1], let d = monthDays.last, d > 28, monthDays == Array(28...d) {
                    var p = GraphRecurrencePattern(type: absolute)
                    p.dayOfMonth = d
                    return p
                }
                throw GraphMappingError.recurrence(
                    "BYSETPOS=\(Self.list(bySetPos))", "Graph picks a position only among weekdays")
            }
            guard monthDays.count == 1, let d = monthDays.first else {
                throw GraphMappingError.recurrence(
                    "BYMONTHDAY=\(Self.list(monthDays))", "a Graph pattern falls on one day of the month")
            }
            if d == -1 {
                var p = GraphRecurrencePattern(type: relative)
                p.daysOfWeek = GraphDayOfWeek.allDays
                p.index = .last
                return p
            }
            guard d > 0 else {
                throw GraphMappingError.recurrence(
                    "BYMONTHDAY=\(d)", "Graph counts days from the month's end only as its last day")
            }
            guard d <= 28 || absolute == .absoluteYearly else {
                throw GraphMappingError.recurrence(
                    "BYMONTHDAY=\(d)", "Graph moves day \(d) to the last day of shorter months, where RRULE skips them")
            }
            var p = GraphRecurrencePattern(type: absolute)
            p.dayOfMonth = d
            return p
        }
        guard byMonthDay.isEmpty else {
            throw GraphMappingError.recurrence(
                "BYMONTHDAY=\(Self.list(byMonthDay)) with BYDAY", "a Graph pattern takes either a day or weekdays")
        }
        var p = GraphRecurrencePattern(type: relative)
        if days.count == 1, bySetPos.isEmpty {
            guard let ordinal = days[0].ordinal else {
                throw GraphMappingError.recurrence(
                    "BYDAY=\(days[0])", "every \(days[0]) of the month is several days; a Graph pattern takes one")
            }
            guard let index = GraphWeekIndex(ordinal: ordinal) else {
                throw GraphMappingError.recurrence("BYDAY=\(days[0])", "Graph counts first to fourth, and last")
            }
            p.daysOfWeek = Self.graphDays(days)
            p.index = index
            return p
        }
        if let numbered = days.first(where: { $0.ordinal != nil }) {
            throw GraphMappingError.recurrence(
                "BYDAY=\(days.map(\.description).joined(separator: ","))",
                "\(numbered) among several days: a Graph pattern numbers one weekday, or picks in a set")
        }
        guard bySetPos.count == 1, let index = GraphWeekIndex(ordinal: bySetPos[0]) else {
            throw GraphMappingError.recurrence(
                bySetPos.isEmpty
                    ? "BYDAY=\(days.map(\.description).joined(separator: ","))" : "BYSETPOS=\(Self.list(bySetPos))",
                bySetPos.isEmpty
                    ? "every such weekday of the month is several days; a Graph pattern takes one"
                    : "Graph picks one position, first to fourth or last")
        }
        p.daysOfWeek = Self.graphDays(days)
        p.index = index
        return p
    }

    private static func graphDays(_ days: [WeekdayNumber]) -> [GraphDayOfWeek] {
        let set = Set(days.map(\.weekday))
        return GraphDayOfWeek.allDays.filter { $0.weekday.map(set.contains) ?? false }
    }

    private static func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ",") }

    /// The last date whose occurrence (at DTSTART's time of day) starts at or before `until`.
    static func lastDate(until: DateTimeValue, start: DateTimeValue, zone: (any ZoneRules)?) -> LocalDate {
        if until.isDate || start.isDate { return until.date }
        let rules: any ZoneRules = zone ?? FixedOffsetZone.utc
        let instant: Int64 =
            until.form == .utc
            ? until.local.secondsSinceEpoch
            : rules.utc(forLocal: until.local)
        let local = rules.local(atUTC: instant)
        let candidate = LocalDateTime(date: local.date, time: start.local.time)
        return rules.utc(forLocal: candidate) <= instant ? local.date : local.date.adding(days: -1)
    }
}
