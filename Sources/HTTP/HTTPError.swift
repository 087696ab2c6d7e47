import Foundation

/// Why a request to a server failed (any protocol over HTTP: CalDAV, Graph, sign-in): a code to branch on, a message saying what failed,
/// a recovery suggestion, and the underlying cause. Credentials never appear in any of them.
///
/// ## Topics
/// - ``Code``
public struct HTTPError: LocalizedError, Sendable, CustomStringConvertible {
    /// What kind of failure; compare with `==` against the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name, e.g. `preconditionFailed`.
        public var description: String { name }

        /// The server refused the credentials (HTTP 401). The CLI exits 5.
        public static let authenticationFailed = Code("authenticationFailed")
        /// The server forbids the operation (HTTP 403), e.g. a calendar-data precondition.
        public static let forbidden = Code("forbidden")
        /// The resource does not exist (HTTP 404/410).
        public static let notFound = Code("notFound")
        /// An If-Match / If-None-Match precondition failed (HTTP 412).
        public static let preconditionFailed = Code("preconditionFailed")
        /// The server's quota is exhausted (HTTP 507 on a write).
        public static let insufficientStorage = Code("insufficientStorage")
        /// A sync-token the server no longer knows; list the collection in full instead.
        public static let invalidSyncToken = Code("invalidSyncToken")
        /// Another unexpected HTTP status (after retries for 5xx and 429).
        public static let unexpectedStatus = Code("unexpectedStatus")
        /// The server still deferred the request, asked too fast, after the retries
        /// (``RateLimitAnswer``): nothing was refused, and the request may be made again later.
        public static let rateLimited = Code("rateLimited")
        /// The connection failed: DNS, refused, reset, timeout (after retries).
        public static let connectionFailed = Code("connectionFailed")
        /// The TLS certificate or the pinned public key did not verify.
        public static let tlsVerificationFailed = Code("tlsVerificationFailed")
        /// The response body was larger than the configured cap.
        public static let responseTooLarge = Code("responseTooLarge")
        /// A redirect was not followed: too many, https → http, to a URL that is not http or
        /// https, or of a write (PUT, DELETE, MKCALENDAR, …), which is made where it was meant
        /// or not at all.
        public static let redirectRefused = Code("redirectRefused")
        /// A response body that is not the XML expected, or that uses a DTD.
        public static let invalidResponse = Code("invalidResponse")
        /// An href from the server outside the collection it belongs to.
        public static let unsafeHref = Code("unsafeHref")
        /// No calendar was found behind the URL.
        public static let discoveryFailed = Code("discoveryFailed")
        /// A request that could not be sent as asked (bad URL, libcurl setup failure).
        public static let invalidRequest = Code("invalidRequest")
    }

    /// What kind of failure, to branch on.
    public var code: Code
    /// What failed, in words (no credentials).
    public var message: String
    /// What the user can do about it.
    public var recovery: String?
    /// The HTTP status, when the failure came from one.
    public var status: Int?
    /// The URL the failure concerns (without user info).
    public var url: URL?
    /// The server's reason (a DAV:error precondition or the body's text), when it gave one.
    public var serverReason: String?
    /// The error underneath (the XML reader's, for a response that cannot be read).
    public var cause: (any Error)?

    /// An error with `code` and `message`, and whatever else is known of the failure.
    public init(
        _ code: Code, _ message: String, recovery: String? = nil, status: Int? = nil,
        url: URL? = nil, serverReason: String? = nil, cause: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.recovery = recovery
        self.status = status
        self.url = url
        self.serverReason = serverReason
        self.cause = cause
    }

    /// The message, which is what a `LocalizedError` shows.
    public var errorDescription: String? { message }
    /// The recovery suggestion, for a `LocalizedError`'s reader.
    public var recoverySuggestion: String? { recovery }
    /// The message.
    public var description: String { message }

    /// The error for an unexpected HTTP status from a request to `url`; `reason` is what the
    /// server said of it (its first meaningful line, unless the caller reads the body better).
    /// `rateLimited`: the client counted the answer a rate limit by its configuration
    /// (``HTTPResponse/rateLimited``), beyond what ``RateLimitAnswer`` always knows.
    public static func status(
        _ status: Int, method: String, url: URL, body: Data, reason: String?, rateLimited: Bool = false
    ) -> HTTPError {
        let suffix = reason.map { ": \($0)" } ?? ""
        let what = "\(method) \(url.redactedString) answered \(status)\(suffix)"
        if rateLimited || RateLimitAnswer.matches(status: status, body: body) {
            let bare = status == 403 && !RateLimitAnswer.matches(status: status, body: body)
            return HTTPError(
                .rateLimited,
                "\(what) (a rate limit: the server is asked too fast"
                    + (bare ? "; this server defers requests with a 403 that gives no reason" : "") + ")",
                recovery: "calgw waited and asked again, in vain; run again in a few minutes (a provider that counts "
                    + "requests per user and per client id shares the quota with every program on the same client id)",
                status: status, url: url, serverReason: reason)
        }
        switch status {
        case 401:
            return HTTPError(
                .authenticationFailed,
                "the server refused the credentials (\(method) \(url.redactedString) answered 401)",
                recovery: "check the username and the password (or token) command; the server asks for them again",
                status: status, url: url, serverReason: reason)
        case 403:
            return HTTPError(
                .forbidden, what, recovery: "the server refuses this; its reason is given above",
                status: status, url: url, serverReason: reason)
        case 404, 410:
            return HTTPError(
                .notFound, what, recovery: "check the URL; the resource is not there",
                status: status, url: url, serverReason: reason)
        case 412:
            return HTTPError(
                .preconditionFailed, what, recovery: "the item changed on the server since it was read; sync again",
                status: status, url: url, serverReason: reason)
        case 507:
            return HTTPError(
                .insufficientStorage, what,
                recovery: "the server is out of space or over quota; free some or ask its admin",
                status: status, url: url, serverReason: reason)
        default:
            return HTTPError(
                .unexpectedStatus, what,
                recovery: status >= 500
                    ? "the server failed; try again later" : "the server did not accept the request",
                status: status, url: url, serverReason: reason)
        }
    }
}

extension URL {
    /// The URL as text without user or password, for messages and logs.
    public var redactedString: String {
        guard var parts = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return "(url)" }
        parts.user = nil
        parts.password = nil
        return parts.string ?? "(url)"
    }
}
