/// Where a calendar collection of an account lives on the server: its path, ending with `/`.
///
/// A type of its own so that a collection's href is never taken for an item's (``ItemHref``)
/// or for a folder's name. In `collections.json` it is plain text.
public struct CollectionHref: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
                              ExpressibleByStringInterpolation {
    /// The collection's path on the server.
    public var path: String

    /// The collection at `path`.
    public init(_ path: String) { self.path = path }
    /// The collection at the path written.
    public init(stringLiteral path: String) { self.path = path }

    /// The path, as messages name the collection.
    public var description: String { path }
    /// Orders collections by path, as the mapping lists them.
    public static func < (a: CollectionHref, b: CollectionHref) -> Bool { a.path < b.path }

    /// Reads the path from plain text, as `collections.json` holds it.
    public init(from decoder: any Decoder) throws { path = try decoder.singleValueContainer().decode(String.self) }
    /// Writes the path as plain text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(path)
    }

    /// The last segment of the path, percent-decoded ("calendar" when there is none).
    var lastSegment: String {
        let segment = path.split(separator: "/").last.map(String.init) ?? "calendar"
        return segment.removingPercentEncoding ?? segment
    }
}
