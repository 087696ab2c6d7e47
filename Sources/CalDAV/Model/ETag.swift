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
