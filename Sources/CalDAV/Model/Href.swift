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
