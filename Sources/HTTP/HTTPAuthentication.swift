import Foundation

/// How requests authenticate. Secrets are held here only; they are never logged or put into
/// errors or descriptions.
public enum HTTPAuthentication: Sendable, CustomStringConvertible {
    /// No credentials.
    case none
    /// Basic, sent with the first request (no extra round trip).
    case basic(username: String, password: String)
    /// Digest (RFC 7616, MD5 or SHA-256), after the server's challenge.
    case digest(username: String, password: String)
    /// Whatever the server offers (Basic or Digest), picked by libcurl after a challenge.
    case any(username: String, password: String)
    /// An OAuth2 bearer token from `provider`. After a 401 the provider is asked once more
    /// with `refresh: true` (for example by running `token_command` again) and the request
    /// is repeated with the new token.
    case bearer(BearerTokenProvider)

    /// The scheme and the user name, never a password or a token.
    public var description: String {
        switch self {
        case .none: return "none"
        case .basic(let user, _): return "basic(\(user))"
        case .digest(let user, _): return "digest(\(user))"
        case .any(let user, _): return "any(\(user))"
        case .bearer: return "bearer"
        }
    }
}

/// Supplies a bearer token, caching it between calls: from a command (`token_command`), or
/// from a sign-in that renews itself. Requests in flight at once that all need a new token wait
/// for one fetch.
public actor BearerTokenProvider {
    private var cached: String?
    private var fetching: Task<String, any Error>?
    private let fetch: @Sendable (_ refresh: Bool) async throws -> String

    /// - Parameter fetch: obtains a fresh token (runs a command, reads a file); called on
    ///   first use and again once after a 401.
    public init(_ fetch: @escaping @Sendable () throws -> String) {
        self.fetch = { _ in try fetch() }
    }

    /// - Parameter fetch: obtains the token; `refresh` is true after the server refused the
    ///   one it gave (a 401), when a token that has not expired by its own account must be
    ///   renewed all the same.
    public init(renewing fetch: @escaping @Sendable (_ refresh: Bool) async throws -> String) {
        self.fetch = fetch
    }

    /// The token; a fresh one when `refresh` is true.
    public func token(refresh: Bool = false) async throws -> String {
        if !refresh, let cached { return cached }
        if let fetching { return try await fetching.value }
        let task = Task { [fetch] in try await fetch(refresh).trimmingCharacters(in: .whitespacesAndNewlines) }
        fetching = task
        defer { fetching = nil }
        let token = try await task.value
        cached = token
        return token
    }
}
