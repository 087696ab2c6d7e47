import Foundation
import HTTP

/// What a server says of itself in its answers' headers: the product headers that tell one
/// server engine from another. Recorded as the server sent them; which product they name, and
/// what that product does, is decided above the client (the facts registry).
public struct ServerIdentity: Equatable, Sendable {
    /// `Server:` (`SOGo/5.8.0`, `Cyrus-HTTP/3.6.1 …`), as first seen; nil when none was sent.
    public var server: String?
    /// `X-DAViCal-Version:`, which every DAViCal answer carries.
    public var davicalVersion: String?
    /// `X-Sabre-Version:`, which sabre/dav (Nextcloud, ownCloud, Baïkal) sends.
    public var sabreVersion: String?

    /// An identity of the given headers (all nil: nothing seen yet).
    public init(server: String? = nil, davicalVersion: String? = nil, sabreVersion: String? = nil) {
        self.server = server
        self.davicalVersion = davicalVersion
        self.sabreVersion = sabreVersion
    }

    /// Whether nothing identifying has been seen.
    public var isEmpty: Bool { server == nil && davicalVersion == nil && sabreVersion == nil }

    /// This identity with what `response` adds: the first value of each header is kept.
    func adding(_ response: HTTPResponse) -> ServerIdentity {
        var identity = self
        identity.server = identity.server ?? response.header("Server")
        identity.davicalVersion = identity.davicalVersion ?? response.header("X-DAViCal-Version")
        identity.sabreVersion = identity.sabreVersion ?? response.header("X-Sabre-Version")
        return identity
    }
}
