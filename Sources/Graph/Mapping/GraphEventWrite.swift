import ICalendar

/// What to send Graph for one iCalendar object (a series or a single event): the master's
/// body, one PATCH body per changed occurrence, the occurrences to delete, and what Graph will
/// not hold.
///
/// The bodies hold only fields Graph lets a client write, each set (an absent DESCRIPTION is
/// an empty body, no VALARM is `isReminderOn: false`), so that one body serves a POST and a
/// PATCH that must clear what the object no longer has. Only `recurrence` is left out when the
/// object does not recur: a PATCH that turns a series into a single event must add
/// `"recurrence": null` itself.
public struct GraphEventWrite: Hashable, Sendable {
    /// The iCalendar UID, also carried in the body as ``GraphExtendedProperty/uidID``.
    public var uid: String
    /// The body to POST (create) or PATCH (update) for the event or series master.
    public var master: GraphEvent
    /// Overrides (RECURRENCE-ID): the PATCH for each occurrence, holding only what differs
    /// from the master, start and end always.
    public var overrides: [GraphOccurrenceWrite]
    /// Occurrences to delete: EXDATEs, and overrides with STATUS:CANCELLED.
    public var cancelled: [GraphOccurrenceStart]
    /// What the object has that Graph will not hold, but that does not stop the write: the
    /// caller can keep the original text in ``GraphExtendedProperty/originalID``.
    public var notHeld: [GraphNotHeld]
}

/// One occurrence of a series, found as Graph finds it: its original start as an instant
/// (Graph's `originalStart`) and as a date (the date in `OID.<master id>.<date>`).
public struct GraphOccurrenceStart: Hashable, Sendable {
    /// The RECURRENCE-ID or EXDATE value, as written.
    public var recurrenceID: DateTimeValue
    /// The instant the occurrence was due at, UTC, as Graph writes `originalStart`:
    /// `2025-05-28T09:30:00Z` (midnight UTC of the date, for an all-day series).
    public var originalStart: String
    /// The occurrence's date in the series' zone.
    public var date: LocalDate

    /// The date in its series' zone of an occurrence Graph lists with `originalStart` (UTC)
    /// and `originalStartTimeZone` (a Windows or IANA name). An all-day series' occurrence
    /// starts at midnight in that zone, written in UTC (`2027-01-05T08:00:00Z` for Pacific
    /// time), so its date is not the UTC one. Nil for a time Graph did not write as one.
    public static func date(ofOriginalStart text: String, zone name: String?) -> LocalDate? {
        guard let stamp = GraphTimestamp(parsing: text) else { return nil }
        let instant = stamp.local.secondsSinceEpoch - Int64(stamp.offset ?? 0)
        guard let name, let iana = GraphZones.iana(forGraphName: name), let rules = GraphZones.rules(iana) else {
            return LocalDateTime(secondsSinceEpoch: instant).date
        }
        return rules.local(atUTC: instant).date
    }
}

/// The PATCH body for one occurrence of a series.
public struct GraphOccurrenceWrite: Hashable, Sendable {
    /// Which occurrence.
    public var occurrence: GraphOccurrenceStart
    /// What to set on it.
    public var patch: GraphEvent
}

/// Something of an iCalendar object that Graph does not hold (a second VALARM, an X-
/// property, ATTACH...), named, with why.
public struct GraphNotHeld: Hashable, Sendable, CustomStringConvertible {
    /// The RECURRENCE-ID of the override it is in, as written; nil for the master.
    public var recurrenceID: String?
    /// The property, parameter or component: `X-FOO`, `ATTENDEE;RSVP`, `VALARM`.
    public var part: String
    /// Why Graph does not hold it.
    public var reason: String

    /// `part`, not held for `reason`.
    public init(_ part: String, _ reason: String, recurrenceID: String? = nil) {
        self.part = part
        self.reason = reason
        self.recurrenceID = recurrenceID
    }

    /// `part: reason`, with the override's RECURRENCE-ID when there is one.
    public var description: String {
        (recurrenceID.map { "RECURRENCE-ID \($0): " } ?? "") + "\(part): \(reason)"
    }
}
