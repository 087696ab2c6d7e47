/// An identifier that is plain text in JSON, in the journal and in files, with a type of its
/// own so that one kind cannot be passed where another is meant (an etag for an href, an
/// item's href for a collection's).
///
/// A conforming type holds its text and makes itself from it; written literals, `Codable` as
/// a bare string, printing and ordering come from here.
public protocol TextIdentifier: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringInterpolation
{
    /// The identifier as its source wrote it.
    var value: String { get }
    /// The identifier `value`.
    init(_ value: String)
}

extension TextIdentifier {
    /// The identifier as written.
    public init(stringLiteral value: String) { self.init(value) }
    /// The text, as messages show it.
    public var description: String { value }
    /// Orders by the text, byte for byte as Swift compares strings.
    public static func < (a: Self, b: Self) -> Bool { a.value < b.value }
    /// Reads the bare text.
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }
    /// Writes the bare text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
