import Foundation

/// What a sync reads of one `DAV:response` in a listing or a fetch of a collection's
/// members: which member it is, whether it is there, its version and its data.
///
/// It holds the same values `DAVResponse` gives (`href`, `status`, `text(DAV:, getetag)`,
/// `property(caldav, calendar-data)?.text`, `hasResourceType(DAV:, collection)`), read
/// straight from the XML stream by `MultistatusReader.members(_:)` without building the
/// response's elements: an answer of 100,000 members is read as 100,000 of these.
public struct DAVMember: Sendable, Equatable {
    /// The first `DAV:href`, trimmed.
    public var href: String
    /// The response-level status (e.g. 404 for a removed member in sync-collection).
    public var status: Int?
    /// `DAV:getetag` from a 2xx propstat, trimmed; nil when absent or empty.
    public var etag: String?
    /// `calendar-data` from a 2xx propstat, with its line ends restored to CRLF (an XML
    /// reader turns them into LF, RFC 5545 wants CRLF: see `LineEnds`); nil when absent or empty.
    public var calendarData: Data?
    /// True when `DAV:resourcetype` holds `DAV:collection`.
    public var isCollection: Bool
    /// `CALDAV:schedule-tag` from a 2xx propstat, trimmed, where it was asked for (RFC 6638
    /// §9.3); nil when absent.
    public var scheduleTag: String?

    /// A member with these values and no Schedule-Tag.
    public init(
        href: String, status: Int? = nil, etag: String? = nil, calendarData: Data? = nil, isCollection: Bool = false
    ) {
        self.href = href
        self.status = status
        self.etag = etag
        self.calendarData = calendarData
        self.isCollection = isCollection
    }

    /// False for a member the server says is not there (a non-2xx response status).
    public var isPresent: Bool {
        guard let status else { return true }
        return (200..<300).contains(status)
    }
}
