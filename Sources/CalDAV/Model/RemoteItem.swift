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
