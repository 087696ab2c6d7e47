import Foundation

/// An entity tag as the server sent it, quotes and `W/` included; sent back verbatim in
/// If-Match.
public struct ETag: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The tag's text, exactly as the server sent it.
    public var value: String
    /// The tag whose text is `value`.
    public init(_ value: String) { self.value = value }
    /// The tag's text.
    public var description: String { value }
}

/// An RFC 6578 sync-token: an opaque URI naming the collection's state.
public struct SyncToken: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The token's text, opaque to the client.
    public var value: String
    /// The token whose text is `value`.
    public init(_ value: String) { self.value = value }
    /// The token's text.
    public var description: String { value }
}

/// A resource's path on the server in one canonical form: percent-decoded, then encoded
/// again with a fixed alphabet, so `/cal/a%40b.ics` and `/cal/a@b.ics` are the same `Href`.
public struct Href: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    /// The canonical, percent-encoded absolute path.
    public var path: String
    /// The href whose path is `canonicalPath`, already in canonical form (see `HrefResolver`).
    public init(canonicalPath: String) { self.path = canonicalPath }
    /// The canonical path.
    public var description: String { path }
    /// Orders by canonical path.
    public static func < (a: Href, b: Href) -> Bool { a.path < b.path }
}

/// A member of a collection: its href and current etag.
public struct RemoteItem: Hashable, Sendable {
    /// The member's path on the server.
    public var href: Href
    /// The version of the member the server last reported.
    public var etag: ETag
    /// A member at `href` in the version `etag`.
    public init(href: Href, etag: ETag) {
        self.href = href
        self.etag = etag
    }
}

/// A calendar object resource's bytes with the etag they were read at.
public struct CalendarResource: Hashable, Sendable {
    /// The resource's path on the server.
    public var href: Href
    /// The version the bytes belong to.
    public var etag: ETag
    /// The resource's bytes: an iCalendar object.
    public var data: Data
    /// The resource's Schedule-Tag, where the server gave one (a GET of a meeting on a server
    /// that schedules).
    public var scheduleTag: ScheduleTag?
    /// A resource read at `href` in the version `etag`, without a Schedule-Tag.
    public init(href: Href, etag: ETag, data: Data) {
        self.href = href
        self.etag = etag
        self.data = data
    }
}

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

/// The answer of a sync-collection REPORT.
public struct SyncCollectionResult: Sendable, Equatable {
    /// New or modified members.
    public var changed: [RemoteItem]
    /// Members gone since the token.
    public var removed: [Href]
    /// The token to use next time.
    public var token: SyncToken?
}

/// The condition of a PUT.
public enum WriteCondition: Sendable, Hashable {
    /// `If-None-Match: *`: only create; fails when the href is taken.
    case createOnly
    /// `If-Match: etag`: only replace that version.
    case ifMatch(ETag)
    /// `If-Schedule-Tag-Match: tag` (RFC 6638 §3.2.10): replace the meeting unless it changed
    /// in a way that matters since the tag was read; a change that does not (another
    /// attendee's answer) the server merges with this write.
    case ifScheduleTagMatch(ScheduleTag)
}

/// The change tokens a PROPFIND of a collection asks for.
public struct CollectionTokens: OptionSet, Sendable {
    /// The tokens' bits.
    public let rawValue: Int
    /// The tokens whose bits are `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The RFC 6578 `DAV:sync-token`.
    public static let syncToken = CollectionTokens(rawValue: 1)
    /// CalendarServer's `getctag`.
    public static let ctag = CollectionTokens(rawValue: 2)
    /// Both tokens.
    public static let all: CollectionTokens = [.syncToken, .ctag]
}
