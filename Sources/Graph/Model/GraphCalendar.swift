/// A calendar of the mailbox, as `GET /me/calendars` lists it.
public struct GraphCalendar: Hashable, Sendable, Codable {
    /// Graph's id; stable.
    public var id: String
    /// The name shown.
    public var name: String?
    /// A preset colour (`auto`, `lightBlue`, ...).
    public var color: String?
    /// The colour the user chose as `#RRGGBB`; `""` when none.
    public var hexColor: String?
    /// Changes whenever the calendar (not its events) changes.
    public var changeKey: String?
    /// Whether the user may share it (false for a calendar shared with them).
    public var canShare: Bool?
    /// Whether the user sees private events' details.
    public var canViewPrivateItems: Bool?
    /// Whether the user may write events in it.
    public var canEdit: Bool?
    /// Whether it is the mailbox's default calendar.
    public var isDefaultCalendar: Bool?
    /// Whether it may be deleted.
    public var isRemovable: Bool?
    /// Who it belongs to (the sharer, for a shared calendar).
    public var owner: GraphEmailAddress?
    /// The folder's MAPI properties asked with `$expand` (``GraphExtendedProperty/commitStampID``).
    public var singleValueExtendedProperties: [GraphExtendedProperty]?

    /// The calendar `id`, named `name`.
    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}
