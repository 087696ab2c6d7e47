import Foundation
import HTTP

/// What a server says of itself in its answers' headers: `Server` and every `X-…-Version`
/// (`X-DAViCal-Version`, `X-Sabre-Version`), the headers that tell one server engine from
/// another. Recorded as the server sent them; which product they name, and what that product
/// does, is decided above the client (the facts registry).
public struct ServerIdentity: Equatable, Sendable {
    /// The headers, by their names in lowercase, as first seen.
    public private(set) var headers: [String: String]

    /// An identity of the given headers (none: nothing seen yet).
    public init(headers: [String: String] = [:]) {
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// The value of the header named `name` (in any letter case); nil when none was sent.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Whether nothing identifying has been seen.
    public var isEmpty: Bool { headers.isEmpty }

    /// Whether a header named `name` says what a server is.
    static func identifies(_ name: String) -> Bool {
        name == "server" || (name.hasPrefix("x-") && name.hasSuffix("-version"))
    }

    /// This identity with what `response` adds: the first value of each such header is kept.
    func adding(_ response: HTTPResponse) -> ServerIdentity {
        var identity = self
        for (name, value) in response.headers {
            let name = name.lowercased()
            if Self.identifies(name), identity.headers[name] == nil { identity.headers[name] = value }
        }
        return identity
    }
}
