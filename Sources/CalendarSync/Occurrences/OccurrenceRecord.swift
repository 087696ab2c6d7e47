import ICalendar
import Recurrence

/// One occurrence as `list --json` and `expand --json` print it (CLI.md "Output"); every key
/// is always present, null when there is no value.
public struct OccurrenceRecord: Encodable {
    var uid: String
    var recurrenceId: String?
    var start: String
    var end: String
    var allDay: Bool
    var timeZone: String?
    var summary: String?
    var location: String?
    var description: String?
    var rrule: String?
    var status: String?
    var sequence: Int
    var lastModified: String?
    var attendees: [Attendee]
    /// The person's own answer to a meeting they attend (their ATTENDEE's PARTSTAT, found by
    /// the account's addresses); nil when not a meeting, not invited, or the addresses are
    /// not known, and then the key is left out (it is not one of CLI.md's).
    var ownParticipationStatus: String?
    var alarms: [AlarmRecord]
    var href: String?
    /// The calendar (an account pair's collection folder) the file is in; only present in
    /// `list` over an account pair.
    var calendar: String?

    struct Attendee: Encodable {
        var address: String
        var commonName: String?
        var role: String?
        var participationStatus: String?
        /// The comment the attendee's answer brought (a COMMENT marked `X-CALGW-ATTENDEE`).
        var comment: String?
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(address, forKey: .address)
            try c.encode(commonName, forKey: .commonName)
            try c.encode(role, forKey: .role)
            try c.encode(participationStatus, forKey: .participationStatus)
            try c.encode(comment, forKey: .comment)
        }
        enum Keys: String, CodingKey { case address, commonName, role, participationStatus, comment }
    }

    struct AlarmRecord: Encodable {
        var action: String?
        var trigger: String?
        var description: String?
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(action, forKey: .action)
            try c.encode(trigger, forKey: .trigger)
            try c.encode(description, forKey: .description)
        }
        enum Keys: String, CodingKey { case action, trigger, description }
    }

    /// The record of `o`; times in the event's own zone (floating times and dates as written).
    init(_ o: Occurrence, resolver: TimeZoneResolver, href: String?) {
        let event = Event(o.component)
        uid = o.uid
        let zoneOf = { (v: DateTimeValue) -> (any ZoneRules)? in v.tzid.flatMap { resolver.zone(for: $0) } }
        if let rid = o.recurrenceID {
            let ridInstant = SeriesTimes.instant(of: rid, resolver: resolver, fallback: o.startInstant)
            recurrenceId = Self.text(rid, instant: ridInstant, zone: zoneOf(rid))
        }
        start = Self.text(o.start, instant: o.startInstant, zone: zoneOf(o.start))
        end = Self.text(o.end, instant: o.endInstant, zone: zoneOf(o.end))
        allDay = o.isAllDay
        timeZone =
            o.start.tzid.map { TimeZoneResolver.ianaIdentifier(for: $0) ?? $0 } ?? (o.start.form == .utc ? "UTC" : nil)
        summary = event.summary
        location = event.location
        description = event.description
        rrule = o.component.properties(named: "RRULE").first?.value
        status = event.status
        sequence = event.sequence
        lastModified = event.lastModified.map { v in
            Self.text(v, instant: SeriesTimes.instant(of: v, resolver: resolver, fallback: 0), zone: zoneOf(v))
        }
        let comments = o.component.properties(named: "COMMENT").compactMap { line in
            line[parameter: "X-CALGW-ATTENDEE"].map { (CalendarUser.normalized($0), line.text) }
        }
        attendees = event.attendees.map { attendee in
            Attendee(
                address: attendee.address, commonName: attendee.commonName, role: attendee.role,
                participationStatus: attendee.participationStatus,
                comment: comments.last { $0.0 == CalendarUser.normalized(attendee.address) }?.1)
        }
        alarms = event.alarms.map { a in
            let trigger: String?
            switch a.trigger {
            case .relative(let d, let fromEnd): trigger = (fromEnd ? "END:" : "") + d.description
            case .absolute(let v): trigger = v.description
            case nil: trigger = nil
            }
            return AlarmRecord(action: a.action, trigger: trigger, description: a.description)
        }
        self.href = href
    }

    /// RFC 3339 for a value at its instant; a TZID that does not resolve reads as floating.
    static func text(_ v: DateTimeValue, instant: Int64, zone: (any ZoneRules)?) -> String {
        if case .zoned = v.form, zone == nil { return v.local.isoString }
        return OccurrenceTime.rfc3339(v, instant: instant, zone: zone)
    }

    /// Every key of CLI.md, null where there is no value; `ownParticipationStatus` and
    /// `calendar` only where they say something.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(uid, forKey: .uid)
        try c.encode(recurrenceId, forKey: .recurrenceId)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(allDay, forKey: .allDay)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(summary, forKey: .summary)
        try c.encode(location, forKey: .location)
        try c.encode(description, forKey: .description)
        try c.encode(rrule, forKey: .rrule)
        try c.encode(status, forKey: .status)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(lastModified, forKey: .lastModified)
        try c.encode(attendees, forKey: .attendees)
        // Beyond CLI.md's keys, so present only where it says something.
        try c.encodeIfPresent(ownParticipationStatus, forKey: .ownParticipationStatus)
        try c.encode(alarms, forKey: .alarms)
        try c.encode(href, forKey: .href)
        try c.encodeIfPresent(calendar, forKey: .calendar)
    }

    enum Keys: String, CodingKey {
        case uid, recurrenceId, start, end, allDay, timeZone, summary, location, description, rrule, status, sequence
        case lastModified, attendees, ownParticipationStatus, alarms, href, calendar
    }
}

/// Instants of values outside a series (RECURRENCE-ID, LAST-MODIFIED).
enum SeriesTimes {
    static func instant(of v: DateTimeValue, resolver: TimeZoneResolver, fallback: Int64) -> Int64 {
        switch v.form {
        case .utc: return v.local.secondsSinceEpoch
        case .zoned(let tzid): return resolver.zone(for: tzid)?.utc(forLocal: v.local) ?? v.local.secondsSinceEpoch
        case .floating, .date: return v.local.secondsSinceEpoch
        }
    }
}
