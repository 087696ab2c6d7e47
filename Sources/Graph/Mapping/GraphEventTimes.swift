import ICalendar

/// The start and end of a Graph event as iCalendar values, in the zone the event was made in,
/// with what the series' other values (UNTIL, EXDATE, RECURRENCE-ID) are computed from.
struct GraphEventTimes {
    var start: DateTimeValue
    var end: DateTimeValue
    /// The IANA zone of the start (`UTC` for UTC); nil for an all-day event made in a zone
    /// calgw cannot resolve.
    var iana: String?
    var zone: (any ZoneRules)?

    var isAllDay: Bool { start.isDate }

    /// The times of `event`; an exception's fall back on its series' zone.
    init(_ event: GraphEvent, seriesZone series: GraphEventTimes?) throws {
        guard let s = event.start, let startLocal = s.local else {
            throw GraphMappingError.unreadable("start", "it is missing or not a date-time")
        }
        let endLocal = event.end?.local
        let madeIn = event.originalStartTimeZone.flatMap(GraphZones.iana(forGraphName:))
        if event.isAllDay == true {
            let first = Self.nearestMidnight(startLocal)
            var last = endLocal.map(Self.nearestMidnight) ?? first.adding(days: 1)
            if last <= first { last = first.adding(days: 1) }
            start = DateTimeValue(date: first)
            end = DateTimeValue(date: last)
            iana = madeIn ?? series?.iana
            zone = iana.flatMap(GraphZones.rules)
            return
        }
        let sentIn = try Self.zone(named: s.timeZone ?? "UTC", field: "start.timeZone")
        let target = madeIn ?? series?.iana ?? sentIn.iana
        guard let targetZone = GraphZones.rules(target) else {
            throw GraphMappingError.unreadable("start.timeZone", "'\(target)' is not a zone calgw knows")
        }
        iana = target
        zone = targetZone
        let form: DateTimeValue.Form = GraphZones.isUTC(target) ? .utc : .zoned(tzid: target)
        let startInstant = sentIn.rules.utc(forLocal: startLocal)
        start = DateTimeValue(targetZone.local(atUTC: startInstant), form: form)
        guard let e = event.end, let endLocal else {
            end = start
            return
        }
        let endSentIn = try Self.zone(named: e.timeZone ?? s.timeZone ?? "UTC", field: "end.timeZone")
        let endTarget = event.originalEndTimeZone.flatMap(GraphZones.iana(forGraphName:)) ?? target
        let endZone = GraphZones.rules(endTarget) ?? targetZone
        let endForm: DateTimeValue.Form = GraphZones.isUTC(endTarget) ? .utc : .zoned(tzid: endTarget)
        end = DateTimeValue(endZone.local(atUTC: endSentIn.rules.utc(forLocal: endLocal)), form: endForm)
    }

    private static func zone(named name: String, field: String) throws -> (iana: String, rules: any ZoneRules) {
        guard let iana = GraphZones.iana(forGraphName: name), let rules = GraphZones.rules(iana) else {
            throw GraphMappingError.unreadable(field, "'\(name)' is not a zone calgw knows")
        }
        return (iana, rules)
    }

    /// The date whose midnight is nearest: Graph's all-day times are midnights, but one read in
    /// another zone than the event's may be off by its offset.
    static func nearestMidnight(_ local: LocalDateTime) -> LocalDate {
        local.time.hour >= 12 ? local.date.adding(days: 1) : local.date
    }

    /// Moves start and end by whole days on the wall clock.
    mutating func move(byDays days: Int) {
        start.local = LocalDateTime(date: start.local.date.adding(days: days), time: start.local.time)
        end.local = LocalDateTime(date: end.local.date.adding(days: days), time: end.local.time)
    }

    /// The occurrence of the series on `day`, in DTSTART's form.
    func startValue(on day: LocalDate) -> DateTimeValue {
        isAllDay
            ? DateTimeValue(date: day)
            : DateTimeValue(LocalDateTime(date: day, time: start.local.time), form: start.form)
    }

    /// UNTIL for a range ending on `endDate` (inclusive): that date for an all-day series; for a
    /// timed one, the last second of that day in `recurrenceTimeZone` (the start's zone when
    /// absent or unknown), in UTC, as RFC 5545 wants UNTIL beside a zoned DTSTART.
    func until(endDate: LocalDate, recurrenceTimeZone: String?) -> DateTimeValue {
        if isAllDay { return DateTimeValue(date: endDate) }
        let rules = recurrenceTimeZone.flatMap(GraphZones.iana(forGraphName:)).flatMap(GraphZones.rules) ?? zone
        let lastSecond = LocalDateTime(date: endDate, time: LocalTime(hour: 23, minute: 59, second: 59))
        let instant = (rules ?? FixedOffsetZone.utc).utc(forLocal: lastSecond)
        return DateTimeValue(LocalDateTime(secondsSinceEpoch: instant), form: .utc)
    }

    /// The series' value (DTSTART's form) of an instant, such as an exception's originalStart.
    func value(atInstant instant: Int64) -> DateTimeValue {
        let local = (zone ?? FixedOffsetZone.utc).local(atUTC: instant)
        if isAllDay { return DateTimeValue(date: Self.nearestMidnight(local)) }
        return DateTimeValue(local, form: start.form)
    }
}
