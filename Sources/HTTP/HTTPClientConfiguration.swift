import Foundation

/// Settings of an `HTTPClient`; every member has a default.
public struct HTTPClientConfiguration: Sendable {
    /// Credentials for the server. Default: none.
    public var authentication: HTTPAuthentication = .none
    /// Most transfers in flight at once through libcurl's multi interface. Default 8.
    public var maxParallelTransfers: Int = 8
    /// Time to establish a connection. Default 15 s.
    public var connectTimeout: TimeInterval = 15
    /// Most time one request may take, 0 for no limit. Default 300 s.
    public var requestTimeout: TimeInterval = 300
    /// A response body larger than this fails with `.responseTooLarge`. Default 256 MB.
    public var maxResponseBytes: Int = 256 * 1024 * 1024
    /// Ask for gzip/deflate/brotli responses (Accept-Encoding). Default true: large
    /// multistatus and calendar bodies shrink several times over real networks; on loopback
    /// compressing costs the server more than it saves.
    public var acceptCompressedResponses: Bool = true
    /// Sent as User-Agent. Default `calgw/VERSION`.
    public var userAgent: String = "calgw/\(HTTPVersions.calgwVersion)"
    /// A PEM file of CA certificates trusted instead of the system's. Default: system CAs.
    public var caFile: String?
    /// A pinned public key in libcurl's form `sha256//BASE64` (SHA-256 of the server's
    /// SubjectPublicKeyInfo); a server with another key is refused. Default: no pin.
    public var pinnedPublicKey: String?
    /// Verify the server certificate and host name. Default true; turn off only in tests.
    public var verifyTLS: Bool = true
    /// Retries after connection errors, 502/503/504 and rate limits (429, Google's 403
    /// `rateLimitExceeded`: ``RateLimitAnswer``), safe requests only. Default 3.
    public var maxRetries: Int = 3
    /// A 403 whose body is an empty `DAV:error` element counts as a rate limit (Google's
    /// CalDAV defers requests so, without JSON and without 429: ``RateLimitAnswer``).
    /// Default false: elsewhere such a 403 is a refusal.
    public var bareDAVErrorIsRateLimit = false
    /// First backoff delay; doubles each attempt, with jitter. Default 0.25 s.
    public var retryBaseDelay: TimeInterval = 0.25
    /// Longest single wait, including a server's Retry-After. Default 30 s.
    public var maxRetryDelay: TimeInterval = 30
    /// Most redirects followed for one request. Default 5.
    public var maxRedirects: Int = 5

    /// A configuration with every default: no credentials, the system's CAs, TLS verified.
    public init() {}

    /// A configuration with `authentication` and defaults for everything else.
    public init(authentication: HTTPAuthentication) {
        self.authentication = authentication
    }
}
