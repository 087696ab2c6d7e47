/// A typed, read-only view of a VEVENT (or VTODO / VJOURNAL) with the fields of calgw's event
/// model. The component stays the source of truth: edits are made on the `Component`, and this
/// view is rebuilt from it, so nothing the model leaves out is ever lost.
public struct Event: Hashable, Sendable {
    /// UID, unescaped.
    public var uid: String?
    /// SUMMARY, unescaped.
    public var summary: String?
    /// DESCRIPTION, unescaped.
    public var description: String?
    /// LOCATION, unescaped.
    public var location: String?
    /// DTSTART.
    public var start: DateTimeValue?
    /// DTEND (or DUE for a VTODO).
    public var end: DateTimeValue?
    /// DURATION, when given instead of an end.
    public var duration: ICalDuration?
    /// RRULEs (several are deprecated but seen), read as `RecurrenceRule.reading` reads them (a
    /// negative COUNT left out); rules that cannot be read are left out here and reported by lint.
    public var recurrenceRules: [RecurrenceRule]
    /// The RRULE values no reader can take (``RecurrenceRule/reading(_:tzid:)``), as written:
    /// left out of `recurrenceRules`, so that a listing can say so.
    public var unreadableRules: [String]
    /// RDATEs: DATE / DATE-TIME values and PERIODs.
    public var recurrenceDates: [RecurrenceDate]
    /// EXDATEs.
    public var exceptionDates: [DateTimeValue]
    /// RECURRENCE-ID of an override.
    public var recurrenceID: DateTimeValue?
    /// Whether RECURRENCE-ID has RANGE=THISANDFUTURE.
    public var appliesToFuture: Bool
    /// STATUS, upper-cased (`CONFIRMED`, `TENTATIVE`, `CANCELLED`, …).
    public var status: String?
    /// SEQUENCE; 0 when absent.
    public var sequence: Int
    /// CREATED.
    public var created: DateTimeValue?
    /// LAST-MODIFIED.
    public var lastModified: DateTimeValue?
    /// DTSTAMP.
    public var timestamp: DateTimeValue?
    /// ORGANIZER.
    public var organizer: CalendarUser?
    /// ATTENDEEs, in order.
    public var attendees: [CalendarUser]
    /// VALARMs, in order.
    public var alarms: [Alarm]
    /// CATEGORIES, every value of every one.
    public var categories: [String]
    /// URL, as written.
    public var url: String?

    /// The view of `component`.
    public init(_ component: Component) {
        let c = component
        uid = c["UID"]?.text
        summary = c["SUMMARY"]?.text
        description = c["DESCRIPTION"]?.text
        location = c["LOCATION"]?.text
        start = c["DTSTART"]?.dateTime
        end = (c["DTEND"] ?? c["DUE"])?.dateTime
        duration = c["DURATION"]?.duration
        let recurrence = EventRecurrence(c)
        recurrenceRules = recurrence.rules
        unreadableRules = recurrence.unreadableRules
        recurrenceDates = recurrence.dates
        exceptionDates = recurrence.exceptionDates
        recurrenceID = c["RECURRENCE-ID"]?.dateTime
        appliesToFuture = c["RECURRENCE-ID"]?[parameter: "RANGE"]?.uppercased() == "THISANDFUTURE"
        status = c["STATUS"]?.text.uppercased()
        sequence = c["SEQUENCE"]?.integer ?? 0
        created = c["CREATED"]?.dateTime
        lastModified = c["LAST-MODIFIED"]?.dateTime
        timestamp = c["DTSTAMP"]?.dateTime
        organizer = c["ORGANIZER"].map(CalendarUser.init)
        attendees = c.properties(named: "ATTENDEE").map(CalendarUser.init)
        alarms = Alarm.views(of: c)
        categories = c.properties(named: "CATEGORIES").flatMap(\.textList)
        url = c["URL"]?.value
    }

    /// An all-day event: DTSTART is a DATE.
    public var isAllDay: Bool { start?.isDate ?? false }

    /// The TZID of DTSTART, if zoned.
    public var timeZoneID: String? { start?.tzid }

    /// Whether the event recurs (has an RRULE or RDATE).
    public var isRecurring: Bool { !recurrenceRules.isEmpty || !recurrenceDates.isEmpty }
}

/// One RDATE entry.
public enum RecurrenceDate: Hashable, Sendable {
    /// A DATE or DATE-TIME value.
    case dateTime(DateTimeValue)
    /// A PERIOD value: a start with an end or a duration.
    case period(Period)

    /// The start of the occurrence it adds.
    public var start: DateTimeValue {
        switch self {
        case .dateTime(let d): return d
        case .period(let p): return p.start
        }
    }
}

/// An ORGANIZER or ATTENDEE.
public struct CalendarUser: Hashable, Sendable {
    /// The CAL-ADDRESS, usually `mailto:…`.
    public var address: String
    /// The CN parameter: the person's name.
    public var commonName: String?
    /// The ROLE parameter (`REQ-PARTICIPANT`, `CHAIR`, …).
    public var role: String?
    /// The PARTSTAT parameter: the person's answer (`NEEDS-ACTION`, `ACCEPTED`, …).
    public var participationStatus: String?
    /// True when the RSVP parameter is TRUE: an answer is expected.
    public var rsvp: Bool

    /// The user `property` names, with its parameters.
    public init(_ property: Property) {
        address = property.value
        commonName = property[parameter: "CN"]
        role = property[parameter: "ROLE"]
        participationStatus = property[parameter: "PARTSTAT"]
        rsvp = property[parameter: "RSVP"]?.uppercased() == "TRUE"
    }

    /// The address without a `mailto:` scheme, lower-cased, for comparing people.
    public var normalizedAddress: String { Self.normalized(address) }

    /// `address` without a `mailto:` scheme, lower-cased, for comparing people.
    public static func normalized(_ address: String) -> String {
        var a = address.trimmingCharacters(in: .whitespaces)
        if a.lowercased().hasPrefix("mailto:") { a = String(a.dropFirst(7)) }
        return a.lowercased()
    }
}

extension Component {
    /// The typed event view of this component.
    public var event: Event { Event(self) }
}
