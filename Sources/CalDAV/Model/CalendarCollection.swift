import Foundation

/// A calendar collection found by discovery, with the properties that describe it.
public struct CalendarCollection: Hashable, Sendable, Codable {
    /// The collection's URL (ends with `/`).
    public var url: URL
    /// The collection's path on the server, in canonical form.
    public var href: Href
    /// The `DAV:displayname`, when the collection has one.
    public var displayName: String?
    /// The Apple `calendar-color`, e.g. `#FF0000FF`.
    public var color: String?
    /// The component types it accepts (`VEVENT`, `VTODO`, ...); empty when the server says nothing.
    public var components: [String]
    /// The calendarserver.org `getctag`, when the server has one.
    public var ctag: String?
    /// The RFC 6578 sync-token, when the server supports sync-collection.
    public var syncToken: SyncToken?
    /// Whether the account may change the calendar's items (RFC 3744
    /// `current-user-privilege-set` holds `write`, `write-content` or `all`); false for a
    /// calendar shared read-only; nil when the server does not say.
    public var writable: Bool?
}
