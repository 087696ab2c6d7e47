/// An event as Microsoft Graph's v1.0 JSON holds it: a single event, a series master, one
/// occurrence or exception of a series, or (in a delta round) the mark that one was removed.
///
/// Every field is optional, because Graph sends only some of them (a delta's removal has only
/// `id` and `@removed`; a `$select` narrows the rest) and because a write body must hold only
/// the fields it means to set: nil fields are left out when encoding. Fields calgw does not
/// read are skipped when decoding, never an error.
///
/// ```swift
/// let page = try JSONDecoder().decode(GraphDeltaPage.self, from: data)
/// for event in page.value where event.removed == nil { … }
/// ```
public struct GraphEvent: Hashable, Sendable, Codable {
    /// Graph's id of the event (immutable when requests send `Prefer: IdType="ImmutableId"`).
    public var id: String?
    /// Graph's iCalendar UID: one for the series master, another for each occurrence.
    public var iCalUId: String?
    /// Changes with every change of the event; sent back in If-Match.
    public var changeKey: String?
    /// `@odata.etag`: `W/"<changeKey>"`.
    public var etag: String?
    /// `@removed`: set on an item of a delta round that left the window or was deleted.
    public var removed: GraphRemoved?
    /// The title.
    public var subject: String?
    /// The notes, HTML unless asked for text.
    public var body: GraphItemBody?
    /// The first 255 characters of the notes, as text (read-only).
    public var bodyPreview: String?
    /// When it starts.
    public var start: GraphDateTimeZone?
    /// When it ends.
    public var end: GraphDateTimeZone?
    /// The zone the event was made in (a Windows name; `tzone://Microsoft/Custom` for a
    /// custom one): what `start` is in when the request did not ask for another.
    public var originalStartTimeZone: String?
    /// The zone of the end, like `originalStartTimeZone`.
    public var originalEndTimeZone: String?
    /// Whether it lasts whole days (start and end at midnight).
    public var isAllDay: Bool?
    /// Where; setting it replaces `locations`.
    public var location: GraphLocation?
    /// Every place it is held at.
    public var locations: [GraphLocation]?
    /// Names from the user's category list.
    public var categories: [String]?
    /// How it shows on free/busy.
    public var showAs: GraphShowAs?
    /// Who may see its details.
    public var sensitivity: GraphSensitivity?
    /// Low, normal or high.
    public var importance: GraphImportance?
    /// Whether the one reminder is on.
    public var isReminderOn: Bool?
    /// How long before the start the reminder shows.
    public var reminderMinutesBeforeStart: Int?
    /// Who organizes it.
    public var organizer: GraphRecipient?
    /// Whether the mailbox owner organizes it (read-only).
    public var isOrganizer: Bool?
    /// Who is invited.
    public var attendees: [GraphAttendee]?
    /// Whether answers are asked for (one flag for every attendee).
    public var responseRequested: Bool?
    /// The mailbox owner's own answer (read-only).
    public var responseStatus: GraphResponseStatus?
    /// Single, occurrence, exception or series master.
    public var type: GraphEventType?
    /// The series master's id, on an occurrence or exception.
    public var seriesMasterId: String?
    /// The instant the occurrence or exception was due at by the pattern (UTC).
    public var originalStart: String?
    /// How the series repeats (series master only).
    public var recurrence: GraphPatternedRecurrence?
    /// The occurrences deleted from the series, as `OID.<master id>.<YYYY-MM-DD>`; on the
    /// master, only when `$select`ed.
    public var cancelledOccurrences: [String]?
    /// The series' exceptions, full events; on the master, only when `$expand`ed.
    public var exceptionOccurrences: [GraphEvent]?
    /// Whether the organizer cancelled it.
    public var isCancelled: Bool?
    /// The client's id for a create, which Graph uses to drop a repeated POST; immutable.
    public var transactionId: String?
    /// The single-value extended properties asked for with `$expand`, or sent on a write.
    public var singleValueExtendedProperties: [GraphExtendedProperty]?
    /// When it was made (UTC, read-only).
    public var createdDateTime: String?
    /// When it last changed (UTC, read-only).
    public var lastModifiedDateTime: String?

    /// An event with every field unset, to fill in.
    public init() {}

    /// The value of the extended property `id`, when the event carries it.
    public func extendedProperty(_ id: String) -> String? {
        singleValueExtendedProperties?.first { $0.id.lowercased() == id.lowercased() }?.value
    }

    enum CodingKeys: String, CodingKey {
        case id, iCalUId, changeKey
        case etag = "@odata.etag"
        case removed = "@removed"
        case subject, body, bodyPreview, start, end, originalStartTimeZone, originalEndTimeZone, isAllDay
        case location, locations, categories, showAs, sensitivity, importance, isReminderOn
        case reminderMinutesBeforeStart, organizer, isOrganizer, attendees, responseRequested, responseStatus
        case type, seriesMasterId, originalStart, recurrence, cancelledOccurrences, exceptionOccurrences
        case isCancelled, transactionId, singleValueExtendedProperties, createdDateTime, lastModifiedDateTime
    }
}
