import ICalendar
import Recurrence

/// One alarm instant as `alarms --json` prints it (docs/cli.md "Output"): every key always
/// present, null when there is no value; times as `list --json` writes them.
public struct AlarmRecord: Encodable {
    var uid: String
    var recurrenceId: String?
    var trigger: String
    var start: String?
    /// A task's due time (its DUE); a task without a start is anchored there, and has no start.
    var due: String?
    var summary: String?
    var action: String?
    var description: String?
    /// The calendar (an account pair's collection folder); only present over an account pair.
    var calendar: String?

    /// The record of `a`, read with its calendar's `resolver`.
    init(_ a: AlarmInstant, resolver: TimeZoneResolver) {
        let zoneOf = { (v: DateTimeValue) -> (any ZoneRules)? in v.tzid.flatMap { resolver.zone(for: $0) } }
        uid = a.uid
        if let o = a.occurrence {
            if let rid = o.recurrenceID {
                let instant = SeriesTimes.instant(of: rid, resolver: resolver, fallback: o.startInstant)
                recurrenceId = OccurrenceRecord.text(rid, instant: instant, zone: zoneOf(rid))
            }
            let text = OccurrenceRecord.text(o.start, instant: o.startInstant, zone: zoneOf(o.start))
            if a.isDueAnchored { due = text } else { start = text }
        } else if let dtstart = a.component["DTSTART"]?.dateTime {
            let instant = SeriesTimes.instant(of: dtstart, resolver: resolver, fallback: a.trigger)
            start = OccurrenceRecord.text(dtstart, instant: instant, zone: zoneOf(dtstart))
        }
        if due == nil, a.component.name == "VTODO", let value = a.component["DUE"]?.dateTime {
            let instant = SeriesTimes.instant(of: value, resolver: resolver, fallback: a.trigger)
            due = OccurrenceRecord.text(value, instant: instant, zone: zoneOf(value))
        }
        trigger = OccurrenceRecord.text(a.triggerValue, instant: a.trigger, zone: zoneOf(a.triggerValue))
        summary = a.component["SUMMARY"]?.text
        action = a.view.action
        description = a.view.description
    }

    /// Every key of docs/cli.md (and `due`, a task's), null where there is no value; `calendar` only over an
    /// account pair.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(uid, forKey: .uid)
        try c.encode(recurrenceId, forKey: .recurrenceId)
        try c.encode(trigger, forKey: .trigger)
        try c.encode(start, forKey: .start)
        try c.encode(due, forKey: .due)
        try c.encode(summary, forKey: .summary)
        try c.encode(action, forKey: .action)
        try c.encode(description, forKey: .description)
        try c.encodeIfPresent(calendar, forKey: .calendar)
    }

    enum Keys: String, CodingKey { case uid, recurrenceId, trigger, start, due, summary, action, description, calendar }
}
