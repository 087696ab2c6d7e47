import ICalendar

extension GraphPatternedRecurrence {
    /// The dates of the series' occurrences, in order, as Graph (Outlook) lays them out: from
    /// the first date on or after `range.startDate` that fits the pattern (not `startDate`
    /// itself unless it fits), through `endDate` inclusive or `numberOfOccurrences` in all.
    ///
    /// An absolute pattern's day beyond a month's end falls on the month's last day (day 31 is
    /// April 30th, February 29th is February 28th in other years), as Outlook places it; a
    /// relative pattern with several weekdays takes the index-th (or last) day of the month
    /// that is one of them.
    /// - Parameters:
    ///   - start: the date to start from; `range.startDate` when nil.
    ///   - last: no date after this one (for a series without end).
    ///   - limit: at most this many dates.
    /// - Returns: the dates; empty when the pattern lacks a field its type needs.
    public func occurrenceDates(from start: LocalDate? = nil, through last: LocalDate? = nil, limit: Int = 1000)
        -> [LocalDate]
    {
        var dates: [LocalDate] = []
        forEachOccurrenceDate(from: start) { date in
            if let last, date > last { return false }
            dates.append(date)
            return dates.count < limit
        }
        return dates
    }

    /// Calls `body` with each occurrence date in order (see `occurrenceDates`) until it returns
    /// false or the range ends.
    func forEachOccurrenceDate(from start: LocalDate? = nil, _ body: (LocalDate) -> Bool) {
        guard let first = start ?? range.startDate.flatMap(LocalDate.init(iso:)) else { return }
        let end: LocalDate? = range.type == .endDate ? range.endDate.flatMap(LocalDate.init(iso:)) : nil
        if range.type == .endDate && end == nil { return }
        var remaining = range.type == .numbered ? (range.numberOfOccurrences ?? 0) : Int.max
        let interval = max(1, pattern.interval ?? 1)
        var emptyPeriods = 0
        var period = 0
        while remaining > 0 {
            guard let dates = datesOfPeriod(period * interval, anchor: first) else { return }
            if dates.isEmpty {
                emptyPeriods += 1
                if emptyPeriods > 400 { return }  // a pattern that never fits (Feb 30th)
            }
            for date in dates where date >= first {
                if let end, date > end { return }
                guard body(date) else { return }
                remaining -= 1
                if remaining == 0 { return }
            }
            if let end, let past = dates.last, past > end { return }
            period += 1
            if period > 200_000 { return }
        }
    }

    /// The dates the pattern gives in the period `offset` units after the anchor's (the
    /// anchor's day, week, month or year), sorted; nil when the pattern cannot be read.
    private func datesOfPeriod(_ offset: Int, anchor: LocalDate) -> [LocalDate]? {
        let p = pattern
        switch p.type {
        case .daily:
            return [anchor.adding(days: offset)]
        case .weekly:
            guard let days = p.daysOfWeek?.compactMap(\.weekday), !days.isEmpty else { return nil }
            let weekStart = (p.firstDayOfWeek ?? .sunday).weekday ?? .sunday
            let back = (anchor.weekday.isoIndex - weekStart.isoIndex + 7) % 7
            let first = anchor.adding(days: -back + 7 * offset)
            return (0..<7).map { first.adding(days: $0) }.filter { days.contains($0.weekday) }
        case .absoluteMonthly, .relativeMonthly:
            let months = anchor.year * 12 + (anchor.month - 1) + offset
            return dates(inYear: months / 12, month: months % 12 + 1)
        case .absoluteYearly, .relativeYearly:
            guard let month = p.month, (1...12).contains(month) else { return nil }
            return dates(inYear: anchor.year + offset, month: month)
        default:
            return nil
        }
    }

    /// The pattern's date in one month: an absolute day (cut to the month's end) or the
    /// index-th fitting weekday.
    private func dates(inYear year: Int, month: Int) -> [LocalDate]? {
        let length = LocalDate.daysIn(month: month, year: year)
        if pattern.type == .absoluteMonthly || pattern.type == .absoluteYearly {
            guard let day = pattern.dayOfMonth, (1...31).contains(day) else { return nil }
            return [LocalDate(year: year, month: month, day: min(day, length))]
        }
        guard let days = pattern.daysOfWeek?.compactMap(\.weekday), !days.isEmpty,
            let ordinal = (pattern.index ?? .first).ordinal
        else { return nil }
        let fitting = (1...length).map { LocalDate(year: year, month: month, day: $0) }.filter {
            days.contains($0.weekday)
        }
        if ordinal == -1 { return fitting.last.map { [$0] } ?? [] }
        return ordinal <= fitting.count ? [fitting[ordinal - 1]] : []
    }
}

extension LocalDate {
    /// The date of `YYYY-MM-DD` (a longer text's first ten characters); nil when invalid.
    init?(iso text: String) {
        let b = Array(text.utf8.prefix(10))
        guard b.count == 10, b[4] == 45, b[7] == 45,
            let y = Int(String(decoding: b[0..<4], as: UTF8.self)),
            let m = Int(String(decoding: b[5..<7], as: UTF8.self)),
            let d = Int(String(decoding: b[8..<10], as: UTF8.self))
        else { return nil }
        self.init(year: y, month: m, day: d)
        guard isValid else { return nil }
    }
}
