/// A time zone defined by a VTIMEZONE component (RFC 5545 §3.6.5): its STANDARD and DAYLIGHT
/// observances, each with DTSTART, TZOFFSETFROM, TZOFFSETTO and optional RRULE / RDATE.
///
/// Transitions are computed once, up to `horizonYear`, and looked up by binary search.
/// Yearly rules (the form every real VTIMEZONE uses: BYMONTH with BYDAY such as `-1SU`, or
/// BYMONTHDAY) are evaluated here; other rule shapes use only their DTSTART and RDATEs.
public struct VTimeZoneRules: ZoneRules {
    /// The VTIMEZONE's TZID.
    public let identifier: String
    /// Instants of offset changes, ascending, with the offset in force from each.
    let transitions: [(utc: Int64, offset: Int)]
    /// The offset before the first transition.
    let initialOffset: Int

    /// The last year for which rule-based transitions are generated.
    public static let horizonYear = 2200

    /// Nil when the component has no usable observance.
    public init?(_ vtimezone: Component) {
        guard let tzid = vtimezone["TZID"]?.value, !tzid.isEmpty else { return nil }
        var all: [(utc: Int64, offset: Int, from: Int)] = []
        for observance in vtimezone.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            guard let start = observance["DTSTART"]?.dateTime,
                let from = observance["TZOFFSETFROM"]?.utcOffset?.seconds,
                let to = observance["TZOFFSETTO"]?.utcOffset?.seconds
            else { continue }
            var locals: [LocalDateTime] = [start.local]
            if let rruleProperty = observance["RRULE"], let rule = try? rruleProperty.recurrenceRule() {
                locals += Self.yearlyOnsets(rule: rule, start: start.local, fromOffset: from)
            }
            for rdate in observance.properties(named: "RDATE") {
                locals += rdate.dateTimes.map(\.local)
            }
            // Onsets are wall-clock times in the offset in force before them (TZOFFSETFROM).
            for local in Set(locals) {
                all.append((local.secondsSinceEpoch - Int64(from), to, from))
            }
        }
        guard !all.isEmpty else { return nil }
        all.sort { $0.utc < $1.utc }
        self.identifier = tzid
        self.initialOffset = all[0].from
        self.transitions = all.map { ($0.utc, $0.offset) }
    }

    /// The offset of the last transition at or before `utc`; before the first, that one's
    /// TZOFFSETFROM.
    public func offset(atUTC utc: Int64) -> Int {
        var low = 0, high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid].utc <= utc { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? initialOffset : transitions[low - 1].offset
    }

    /// From the last transition at or before `utc` to the next one.
    public func constantOffsetInterval(containing utc: Int64) -> Range<Int64>? {
        var low = 0, high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid].utc <= utc { low = mid + 1 } else { high = mid }
        }
        let from = low == 0 ? Int64.min : transitions[low - 1].utc
        let to = low < transitions.count ? transitions[low].utc : Int64.max
        return from..<to
    }

    /// Onsets after `start` of a yearly rule with BYMONTH and BYDAY / BYMONTHDAY.
    static func yearlyOnsets(rule: RecurrenceRule, start: LocalDateTime, fromOffset: Int) -> [LocalDateTime] {
        guard rule.frequency == .yearly else { return [] }
        let months = rule.byMonth.isEmpty ? [start.date.month] : rule.byMonth
        var result: [LocalDateTime] = []
        var emitted = 0
        let untilUTC: Int64? = rule.until.map { u in
            u.form == .utc ? u.local.secondsSinceEpoch : u.local.secondsSinceEpoch - Int64(fromOffset)
        }
        var year = start.date.year
        while year <= horizonYear {
            defer { year += rule.interval }
            for month in months.sorted() {
                var days: [LocalDate] = []
                if !rule.byDay.isEmpty {
                    for wd in rule.byDay {
                        days += Self.weekdays(wd.weekday, inMonth: month, year: year, ordinal: wd.ordinal)
                    }
                    if !rule.byMonthDay.isEmpty {
                        days = days.filter { d in
                            rule.byMonthDay.contains { md in
                                md > 0 ? d.day == md : d.day == LocalDate.daysIn(month: month, year: year) + md + 1
                            }
                        }
                    }
                } else if !rule.byMonthDay.isEmpty {
                    days = rule.byMonthDay.compactMap { md in
                        let dim = LocalDate.daysIn(month: month, year: year)
                        let day = md > 0 ? md : dim + md + 1
                        return day >= 1 && day <= dim ? LocalDate(year: year, month: month, day: day) : nil
                    }
                } else {
                    let d = LocalDate(year: year, month: month, day: start.date.day)
                    if d.isValid { days = [d] }
                }
                for d in days.sorted() {
                    let onset = LocalDateTime(date: d, time: start.time)
                    guard onset > start else { continue }
                    if let untilUTC, onset.secondsSinceEpoch - Int64(fromOffset) > untilUTC { return result }
                    if let count = rule.count, emitted + 1 >= count { return result }
                    result.append(onset)
                    emitted += 1
                }
            }
        }
        return result
    }

    /// The days of `weekday` in a month; with an ordinal only the n-th (negative: from the end).
    static func weekdays(_ weekday: Weekday, inMonth month: Int, year: Int, ordinal: Int?) -> [LocalDate] {
        let first = LocalDate(year: year, month: month, day: 1)
        let shift = (weekday.isoIndex - first.weekday.isoIndex + 7) % 7
        let dim = LocalDate.daysIn(month: month, year: year)
        let all = stride(from: 1 + shift, through: dim, by: 7).map { LocalDate(year: year, month: month, day: $0) }
        guard let ordinal else { return all }
        let index = ordinal > 0 ? ordinal - 1 : all.count + ordinal
        return all.indices.contains(index) ? [all[index]] : []
    }
}
