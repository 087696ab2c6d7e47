/// A string-valued enumeration of Graph's JSON (`showAs`, `type`, `pattern.type`, ...).
///
/// A struct over its raw text rather than a Swift `enum`, so that a value Graph adds later is
/// kept as it came instead of failing the whole event: an unknown keyword is a value like any
/// other, which the mapping treats as it documents. Reading matches a known keyword whatever
/// its case (Graph writes `HTML` in samples and answers `html`), and keeps the known spelling.
public protocol GraphKeyword: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
where RawValue == String {
    /// The keywords Graph documents, spelled as it documents them.
    static var known: [Self] { get }
    /// The keyword exactly as `text` spells it.
    init(verbatim text: String)
}

extension GraphKeyword {
    /// The known keyword `text` names in any case, else `text` as it is.
    public init(rawValue text: String) {
        let lowered = text.lowercased()
        self = Self.known.first { $0.rawValue.lowercased() == lowered } ?? Self(verbatim: text)
    }

    /// The keyword as written in source: `"free"`.
    public init(stringLiteral text: String) { self.init(verbatim: text) }

    /// The raw text.
    public var description: String { rawValue }

    /// Whether Graph documents this keyword.
    public var isKnown: Bool { Self.known.contains(self) }
}
