/// A server product calgw knows the behaviour of, by the name the config uses for it
/// (`server = "sogo"`). The products and their facts are listed in one place, the registry
/// (`ServerFacts+Products.swift`).
public struct ServerProduct: Hashable, Sendable, CustomStringConvertible {
    /// The config's name for the product (`sogo`, `sabre`).
    public let name: String

    /// The product named `name` (not checked against the registry: see ``ServerFacts/named(_:)``).
    public init(_ name: String) { self.name = name }

    public var description: String { name }
}
