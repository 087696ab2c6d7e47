/// An RFC 6578 sync-token: an opaque URI naming the collection's state.
public struct SyncToken: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The token's text, opaque to the client.
    public var value: String
    /// The token whose text is `value`.
    public init(_ value: String) { self.value = value }
    /// The token's text.
    public var description: String { value }
}
