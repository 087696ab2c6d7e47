/// `singleValueExtendedProperties[]`: a MAPI named property, by id, holding a string.
///
/// calgw keeps an iCalendar UID in one (``GraphExtendedProperty/uidID``), since Graph makes
/// its own `iCalUId` on create and offers no field for the client's.
public struct GraphExtendedProperty: Hashable, Sendable, Codable {
    /// `{type} {guid} Name {name}`, e.g. `String {66f5a359-4659-4830-9070-00040ec6ac6e} Name Fun`.
    public var id: String
    /// The value, as a string.
    public var value: String?

    /// The property `id`, holding `value`.
    public init(id: String, value: String?) {
        self.id = id
        self.value = value
    }

    /// calgw's property namespace (a GUID of its own, so no other program's names collide).
    public static let namespace = "{6c8f2f0e-5b7a-4c1e-9d3a-2f41c7a9e0b5}"
    /// The id of the property that holds the iCalendar UID of the series.
    public static let uidID = "String \(namespace) Name calgw.uid"
    /// The id of the property a caller may keep the object's original iCalendar text in, when
    /// the write reported parts Graph does not hold (``GraphEventWrite/notHeld``).
    public static let originalID = "String \(namespace) Name calgw.ics"
    /// A folder's `PR_LOCAL_COMMIT_TIME_MAX`: when anything in it was last written (an event
    /// made, changed, deleted, moved, an occurrence changed or cancelled). Exchange keeps it
    /// on every folder; DavMail reads it as a calendar's ctag.
    public static let commitStampID = "SystemTime 0x670A"
}

/// `@removed`: the mark delta puts on an event gone from the window.
public struct GraphRemoved: Hashable, Sendable, Codable {
    /// Always `deleted` today, for a deletion and for a change moved out of the window alike.
    public var reason: String?

    /// A removal for `reason`.
    public init(reason: String? = nil) { self.reason = reason }
}
