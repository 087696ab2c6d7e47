import Foundation
import Synchronization

/// Writes the VTIMEZONE (RFC 5545 §3.6.5) of an IANA zone from the system's time-zone database,
/// for objects that name a zone in TZID without defining it.
///
/// The definition states the zone's current rules as if they had always held, as most
/// generated VTIMEZONEs do (Thunderbird's, tzurl.org's), starting in 1970:
/// - a zone without daylight saving time has one STANDARD observance,
///   `DTSTART:19700101T000000` with equal TZOFFSETFROM and TZOFFSETTO;
/// - a zone that changes its offset twice a year on the same rule has a STANDARD and a
///   DAYLIGHT observance, each with a yearly RRULE (`BYMONTH` and an n-th weekday, `-1` for
///   the last, or a weekday on or after a day as `BYDAY=SU;BYMONTHDAY=2,…,8`), its DTSTART the
///   rule's onset in 1970 in the local time before the change;
/// - any other zone (changes that do not repeat yearly, or stop) lists its actual changes from
///   1970 on as RDATEs.
///
/// TZNAME is the system's abbreviation (`CET`, or `GMT+1` where Foundation has no names).
///
/// ```swift
/// let berlin = VTimeZoneGenerator.vtimezone(for: "Europe/Berlin")
/// // BEGIN:VTIMEZONE / TZID:Europe/Berlin
/// // BEGIN:STANDARD / DTSTART:19701025T030000 / RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
/// // TZOFFSETFROM:+0200 / TZOFFSETTO:+0100 / TZNAME:CET / END:STANDARD
/// // BEGIN:DAYLIGHT / DTSTART:19700329T020000 / RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU ...
/// ```
public enum VTimeZoneGenerator {
    /// The VTIMEZONE for `identifier`, with that TZID.
    /// - Parameters:
    ///   - identifier: an IANA zone the system knows, such as `Europe/Berlin`.
    ///   - date: the rules in force from this date's year on are the ones written (default:
    ///     now); a yearly rule is written only when it gives every change of the next
    ///     `checkedYears` years.
    /// - Returns: nil when the system does not know the zone.
    public static func vtimezone(for identifier: String, at date: Date = Date()) -> Component? {
        let year = LocalDateTime(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))).date.year
        let key = "\(identifier)\u{0}\(year)"
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let made = generate(identifier, year: year, at: date)
        cache.withLock { $0[key] = made }
        return made
    }

    /// Generated definitions by zone and year: the tz database does not change while calgw runs.
    private static let cache = Mutex<[String: Component?]>([:])

    /// One change of offset: its instant and the offsets before and after it.
    struct Transition {
        var utc: Int64
        var from: Int
        var to: Int
        var name: String?
        /// The wall-clock time of the change, read in the offset before it (as DTSTART is).
        var onset: LocalDateTime { LocalDateTime(secondsSinceEpoch: utc + Int64(from)) }
        var observance: String { to > from ? "DAYLIGHT" : "STANDARD" }
    }

    /// The definition, uncached: one STANDARD when the zone does not change from `year` on
    /// for `checkedYears` years, yearly rules when they fit, else the changes listed.
    static func generate(_ identifier: String, year: Int, at date: Date) -> Component? {
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        let start = LocalDateTime(year: year, month: 1, day: 1).secondsSinceEpoch
        let end = LocalDateTime(year: year + checkedYears, month: 1, day: 1).secondsSinceEpoch
        let current = transitions(of: zone, from: start, to: end, limit: 2 * checkedYears + 1)
        let observances: [Component]
        if current.isEmpty {
            let offset = zone.secondsFromGMT(for: date)
            observances = [
                observance(
                    "STANDARD", start: LocalDateTime(year: 1970, month: 1, day: 1), from: offset, to: offset,
                    name: zone.abbreviation(for: date))
            ]
        } else if let yearly = yearlyObservances(current) {
            observances = yearly
        } else {
            let history = transitions(
                of: zone, from: 0, to: LocalDateTime(year: year + 30, month: 1, day: 1).secondsSinceEpoch, limit: 2000)
            observances = listedObservances(history)
        }
        return Component(
            name: "VTIMEZONE", properties: [Property(name: "TZID", value: identifier)],
            components: observances.sorted { $0.name == "STANDARD" && $1.name != "STANDARD" })
    }

    /// The offset changes of `zone` in `[from, to)` (seconds since the epoch), at most `limit`.
    static func transitions(of zone: TimeZone, from: Int64, to: Int64, limit: Int) -> [Transition] {
        var result: [Transition] = []
        var cursor = Date(timeIntervalSince1970: TimeInterval(from))
        while result.count < limit, let next = zone.nextDaylightSavingTimeTransition(after: cursor), next > cursor {
            let utc = Int64(next.timeIntervalSince1970.rounded())
            if utc >= to { break }
            cursor = next
            let before = zone.secondsFromGMT(for: next.addingTimeInterval(-1)), after = zone.secondsFromGMT(for: next)
            if before != after {
                result.append(Transition(utc: utc, from: before, to: after, name: zone.abbreviation(for: next)))
            }
        }
        return result
    }

    /// A STANDARD and a DAYLIGHT observance with yearly rules, when the changes of
    /// `checkedYears` years alternate between two offsets, two a year, each pair on one rule
    /// (same month, weekday, local time and offsets, and a day `dayRule` finds every year);
    /// else nil.
    static func yearlyObservances(_ changes: [Transition]) -> [Component]? {
        guard changes.count == 2 * checkedYears, changes[0].to == changes[1].from, changes[1].to == changes[0].from
        else { return nil }
        var result: [Component] = []
        for i in 0..<2 {
            let samples = stride(from: i, to: changes.count, by: 2).map { changes[$0] }
            let first = samples[0], onset = first.onset
            for (k, sample) in samples.enumerated() {
                let date = sample.onset.date
                guard sample.from == first.from, sample.to == first.to, sample.onset.time == onset.time,
                    date.month == onset.date.month, date.year == onset.date.year + k, date.weekday == onset.date.weekday
                else { return nil }
            }
            guard let rule = dayRule(samples.map(\.onset.date)), let start = rule.day(1970) else { return nil }
            var component = observance(
                first.observance, start: LocalDateTime(date: start, time: onset.time), from: first.from, to: first.to,
                name: first.name)
            component.properties.insert(
                Property(name: "RRULE", value: "FREQ=YEARLY;BYMONTH=\(onset.date.month);\(rule.parts)"), at: 1)
            result.append(component)
        }
        return result
    }

    /// Years of changes a yearly rule must match before it is written.
    static let checkedYears = 12

    /// Which day of its month a change falls on: the n-th `weekday` (`-1`: the last), or the
    /// first `weekday` on or after a day (as tz rules say `Sun>=2`).
    struct DayRule {
        var weekday: Weekday
        var month: Int
        var ordinal: Int?
        var onOrAfter: Int?

        /// The day in `year`.
        func day(_ year: Int) -> LocalDate? {
            if let ordinal {
                return VTimeZoneRules.weekdays(weekday, inMonth: month, year: year, ordinal: ordinal).first
            }
            guard let onOrAfter else { return nil }
            return VTimeZoneRules.weekdays(weekday, inMonth: month, year: year, ordinal: nil).first {
                $0.day >= onOrAfter
            }
        }

        /// The rule's RRULE parts after BYMONTH.
        var parts: String {
            if let ordinal { return "BYDAY=\(ordinal)\(weekday.rawValue)" }
            let days = (0..<7).map { String((onOrAfter ?? 1) + $0) }.joined(separator: ",")
            return "BYDAY=\(weekday.rawValue);BYMONTHDAY=\(days)"
        }
    }

    /// The rule that gives each of `days` (one a year, same month and weekday, from the first
    /// year on): an ordinal, the last week first, else on-or-after the earliest day seen.
    /// Nil when none does.
    static func dayRule(_ days: [LocalDate]) -> DayRule? {
        guard let first = days.first else { return nil }
        let daysInMonth = LocalDate.daysIn(month: first.month, year: first.year)
        var candidates: [DayRule] = []
        if first.day + 7 > daysInMonth {
            candidates.append(DayRule(weekday: first.weekday, month: first.month, ordinal: -1))
        }
        candidates.append(DayRule(weekday: first.weekday, month: first.month, ordinal: (first.day - 1) / 7 + 1))
        if let earliest = days.map(\.day).min(), earliest + 6 <= 28 {
            candidates.append(DayRule(weekday: first.weekday, month: first.month, onOrAfter: earliest))
        }
        return candidates.first { rule in days.allSatisfy { rule.day($0.year) == $0 } }
    }

    /// Observances listing `changes` as they happened: one per kind and pair of offsets (and
    /// name), its first change as DTSTART and the others as RDATEs.
    static func listedObservances(_ changes: [Transition]) -> [Component] {
        var order: [String] = []
        var groups: [String: [Transition]] = [:]
        for change in changes {
            let key = "\(change.observance) \(change.from) \(change.to) \(change.name ?? "")"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(change)
        }
        return order.map { key in
            let group = groups[key]!
            var component = observance(
                group[0].observance, start: group[0].onset, from: group[0].from, to: group[0].to, name: group[0].name)
            if group.count > 1 {
                component.properties.insert(
                    Property(
                        name: "RDATE", value: group.dropFirst().map { $0.onset.description }.joined(separator: ",")),
                    at: 1)
            }
            return component
        }
    }

    /// A STANDARD or DAYLIGHT component.
    static func observance(_ name: String, start: LocalDateTime, from: Int, to: Int, name abbreviation: String?)
        -> Component
    {
        var properties = [
            Property(name: "DTSTART", value: start.description),
            Property(name: "TZOFFSETFROM", value: UTCOffset(seconds: from).description),
            Property(name: "TZOFFSETTO", value: UTCOffset(seconds: to).description),
        ]
        if let abbreviation, !abbreviation.isEmpty { properties.append(Property.text("TZNAME", abbreviation)) }
        return Component(name: name, properties: properties)
    }
}
