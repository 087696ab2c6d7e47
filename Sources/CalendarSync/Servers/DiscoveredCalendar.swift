import Foundation

/// A calendar a server lists behind a URL (RFC 6764 discovery), with what describes it.
public struct DiscoveredCalendar: Equatable, Sendable {
    /// The calendar's URL (ends with `/`).
    public var url: URL
    /// Its path on the server, in canonical form.
    public var href: String
    /// The `DAV:displayname`, when it has one.
    public var displayName: String?
    /// The Apple `calendar-color`, e.g. `#FF0000FF`.
    public var color: String?
    /// The component types it accepts (`VEVENT`, `VTODO`, …); empty when the server says nothing.
    public var components: [String]
    /// The calendarserver.org `getctag`, when the server has one.
    public var ctag: String?
    /// The RFC 6578 sync-token, when the server supports sync-collection.
    public var syncToken: String?
    /// False for a calendar the account may only read; nil when the server does not say.
    public var writable: Bool?

    /// Whether an account pair syncs this calendar: it holds events or tasks (or says
    /// nothing), so it is not a scheduling inbox or outbox, nor an address book.
    public var holdsItems: Bool {
        components.isEmpty || components.contains("VEVENT") || components.contains("VTODO")
    }

    /// A calendar at `url`; its href is the URL's path. Change tokens are CalDAV's and left out.
    public init(
        url: URL, displayName: String? = nil, color: String? = nil, components: [String] = [], writable: Bool? = nil
    ) {
        self.url = url
        href = url.path(percentEncoded: false)
        self.displayName = displayName
        self.color = color
        self.components = components
        self.writable = writable
    }
}
