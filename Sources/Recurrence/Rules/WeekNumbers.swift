import ICalendar

/// BYWEEKNO (RFC 5545 §3.3.10): weeks start on WKST, and week 1 is the first week with at
/// least four days in the year (ISO 8601 with a movable week start). Negative numbers count
/// from the last week of the year.
enum WeekNumbers {
    /// For each day of `year` (index 0 = January 1st), whether it lies in one of `numbers`.
    /// Days early in January that belong to the previous year's last week, and days late in
    /// December that belong to the next year's week 1, are matched by those weeks' numbers.
    static func mask(year: Int, numbers: [Int], weekStart: Int) -> [Bool] {
        let yearLength = LocalDate.daysIn(year: year)
        var mask = Array(repeating: false, count: yearLength)
        let layout = Layout(year: year, weekStart: weekStart)
        for raw in numbers {
            let n = raw < 0 ? raw + layout.weekCount + 1 : raw
            guard n >= 1 && n <= layout.weekCount else { continue }
            let first = layout.week1Start + (n - 1) * 7
            for i in first..<(first + 7) where i >= 0 && i < yearLength { mask[i] = true }
        }
        // Late-December days in the next year's week 1.
        let next = Layout(year: year + 1, weekStart: weekStart)
        if next.week1Start < 0 && numbers.contains(1) {
            let start = yearLength + next.week1Start
            for i in start..<yearLength where i >= 0 { mask[i] = true }
        }
        // Early-January days in the previous year's last week.
        if layout.week1Start > 0 {
            let previous = Layout(year: year - 1, weekStart: weekStart)
            if numbers.contains(previous.weekCount) || numbers.contains(-1) {
                for i in 0..<layout.week1Start { mask[i] = true }
            }
        }
        return mask
    }

    /// Where week 1 of a year starts and how many weeks the year has.
    struct Layout {
        /// Day index (0 = January 1st) of the first day of week 1; negative when it starts in
        /// the previous December.
        var week1Start: Int
        var weekCount: Int

        init(year: Int, weekStart: Int) {
            let jan1 = LocalDate(year: year, month: 1, day: 1)
            let jan1Weekday = jan1.weekday.isoIndex
            // Days from January 1st to the first day that starts a week.
            let firstWeekStart = (7 - jan1Weekday + weekStart) % 7
            week1Start = firstWeekStart >= 4 ? firstWeekStart - 7 : firstWeekStart
            let length = LocalDate.daysIn(year: year) - week1Start
            weekCount = length / 7 + (length % 7) / 4
        }
    }
}
