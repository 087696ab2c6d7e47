/// A property parameter (RFC 5545 §3.2): a name and one or more values.
///
/// Values are held decoded: surrounding quotes are removed and RFC 6868 caret escapes
/// (`^n`, `^^`, `^'`) are resolved. The serializer re-quotes and re-escapes as needed.
public struct Parameter: Hashable, Sendable {
    /// The upper-cased parameter name, e.g. `TZID`, `VALUE`, `X-FOO`.
    public var name: String
    /// The values, in order; most parameters have exactly one.
    public var values: [String]

    /// A parameter named `name` (upper-cased) with these decoded values.
    public init(name: String, values: [String]) {
        self.name = name.asciiUppercased
        self.values = values
    }

    /// A parameter named `name` (upper-cased) with one decoded value.
    public init(_ name: String, _ value: String) {
        self.init(name: name, values: [value])
    }

    /// The first value, which is the only one for single-valued parameters.
    public var value: String { values.first ?? "" }
}
