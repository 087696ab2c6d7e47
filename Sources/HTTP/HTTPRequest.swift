import Foundation

/// One HTTP request: method, URL, headers and an optional body held in memory.
public struct HTTPRequest: Sendable {
    /// The method, e.g. `GET`, `PUT`, `PROPFIND`, `REPORT`.
    public var method: String
    /// Where the request goes.
    public var url: URL
    /// Header fields in order; names are sent as given.
    public var headers: [(name: String, value: String)]
    /// The body to send; nil for none.
    public var body: Data?
    /// Set by a caller that knows the request writes nothing whatever its method says (Graph's
    /// `$batch` of GETs is a POST), so that it is asked again after a fault as a GET is.
    public var writesNothing = false

    /// A request; without headers or a body unless given.
    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of the first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// True when repeating the request cannot do harm: a safe or idempotent method that
    /// writes nothing, a request said to write nothing, or a write made conditional by
    /// If-Match / If-None-Match.
    public var isRetrySafe: Bool {
        if writesNothing { return true }
        switch method.uppercased() {
        case "GET", "HEAD", "OPTIONS", "PROPFIND", "REPORT": return true
        default: return header("If-Match") != nil || header("If-None-Match") != nil
        }
    }

    /// True for the methods whose redirects are followed keeping method and body.
    var followsRedirects: Bool {
        ["GET", "HEAD", "OPTIONS", "PROPFIND", "REPORT"].contains(method.uppercased())
    }
}

/// A complete HTTP response.
public struct HTTPResponse: Sendable {
    /// The status code of the final response (after redirects).
    public var status: Int
    /// Header fields of the final response, in order (names as the server sent them).
    public var headers: [(name: String, value: String)]
    /// The body, whole.
    public var body: Data
    /// The URL that answered (after redirects).
    public var url: URL
    /// The server deferred the request, asked too fast, and still did after the client's
    /// retries (``RateLimitAnswer``, by the client's configuration): the request was not
    /// refused, and may be asked again later.
    public var rateLimited: Bool

    /// A response as received.
    public init(status: Int, headers: [(name: String, value: String)], body: Data, url: URL, rateLimited: Bool = false)
    {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.rateLimited = rateLimited
    }

    /// The value of the first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body decoded as UTF-8 (lossy).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// True for 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
