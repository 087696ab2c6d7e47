import ICalendar

extension GraphPatternedRecurrence {
    /// The RRULE of the pattern, without COUNT and UNTIL (the range's part, which needs the
    /// start's zone: see `GraphEvent.iCalendar`).
    ///
    /// | pattern | RRULE |
    /// | --- | --- |
    /// | daily | `FREQ=DAILY` |
    /// | weekly | `FREQ=WEEKLY;BYDAY=…;WKST=…` (WKST from firstDayOfWeek, Sunday by default) |
    /// | absoluteMonthly, day ≤ 28 | `FREQ=MONTHLY;BYMONTHDAY=d` |
    /// | absoluteMonthly, day 29–31 | `FREQ=MONTHLY;BYMONTHDAY=28,…,d;BYSETPOS=-1` (last day when shorter) |
    /// | relativeMonthly, one day | `FREQ=MONTHLY;BYDAY=2TH` (`-1TH` for last) |
    /// | relativeMonthly, several days | `FREQ=MONTHLY;BYDAY=MO,…,FR;BYSETPOS=2` |
    /// | absoluteYearly | `FREQ=YEARLY;BYMONTH=m;BYMONTHDAY=d` (`BYMONTHDAY=28,29;BYSETPOS=-1` for Feb 29th) |
    /// | relativeYearly | `FREQ=YEARLY;BYMONTH=m;BYDAY=…` as relativeMonthly |
    /// - Throws: `GraphMappingError` when the pattern lacks a field its type needs.
    func patternRule() throws -> RecurrenceRule {
        let p = pattern
        var rule: RecurrenceRule
        switch p.type {
        case .daily:
            rule = RecurrenceRule(frequency: .daily)
        case .weekly:
            rule = RecurrenceRule(frequency: .weekly)
            rule.byDay = try weekdays().map { RecurrenceRule.WeekdayNumber($0) }
            rule.weekStart = (p.firstDayOfWeek ?? .sunday).weekday ?? .sunday
            rule.hasExplicitWeekStart = true
        case .absoluteMonthly:
            rule = RecurrenceRule(frequency: .monthly)
            let day = try dayOfMonth(maximum: 31)
            if day > 28 {
                rule.byMonthDay = Array(28...day)
                rule.bySetPos = [-1]
            } else {
                rule.byMonthDay = [day]
            }
        case .relativeMonthly:
            rule = RecurrenceRule(frequency: .monthly)
            try setRelativeDays(&rule)
        case .absoluteYearly:
            rule = RecurrenceRule(frequency: .yearly)
            let month = try self.month()
            let day = try dayOfMonth(maximum: LocalDate.daysIn(month: month, year: 2000))
            rule.byMonth = [month]
            if month == 2 && day == 29 {
                rule.byMonthDay = [28, 29]
                rule.bySetPos = [-1]
            } else {
                rule.byMonthDay = [day]
            }
        case .relativeYearly:
            rule = RecurrenceRule(frequency: .yearly)
            rule.byMonth = [try month()]
            try setRelativeDays(&rule)
        default:
            throw GraphMappingError.unreadable("recurrence.pattern.type", "'\(p.type)' is not a documented pattern")
        }
        let interval = p.interval ?? 1
        guard interval >= 1 else {
            throw GraphMappingError.unreadable("recurrence.pattern.interval", "\(interval) is not a positive interval")
        }
        rule.interval = interval
        return rule
    }

    private func weekdays() throws -> [Weekday] {
        let days = (pattern.daysOfWeek ?? []).compactMap(\.weekday)
        guard !days.isEmpty, days.count == pattern.daysOfWeek?.count else {
            throw GraphMappingError.unreadable(
                "recurrence.pattern.daysOfWeek", "a \(pattern.type) pattern needs days of the week Graph documents")
        }
        // Graph's order (Sunday first), each day once.
        return GraphDayOfWeek.allDays.compactMap(\.weekday).filter(days.contains)
    }

    private func dayOfMonth(maximum: Int) throws -> Int {
        guard let day = pattern.dayOfMonth, (1...maximum).contains(day) else {
            throw GraphMappingError.unreadable(
                "recurrence.pattern.dayOfMonth", "a \(pattern.type) pattern needs a day from 1 to \(maximum)")
        }
        return day
    }

    private func month() throws -> Int {
        guard let month = pattern.month, (1...12).contains(month) else {
            throw GraphMappingError.unreadable(
                "recurrence.pattern.month", "a \(pattern.type) pattern needs a month from 1 to 12")
        }
        return month
    }

    private func setRelativeDays(_ rule: inout RecurrenceRule) throws {
        let days = try weekdays()
        let index = pattern.index ?? .first
        guard let ordinal = index.ordinal else {
            throw GraphMappingError.unreadable("recurrence.pattern.index", "'\(index)' is not a documented index")
        }
        if days.count == 1 {
            rule.byDay = [RecurrenceRule.WeekdayNumber(days[0], ordinal: ordinal)]
        } else {
            rule.byDay = days.map { RecurrenceRule.WeekdayNumber($0) }
            rule.bySetPos = [ordinal]
        }
    }
}
