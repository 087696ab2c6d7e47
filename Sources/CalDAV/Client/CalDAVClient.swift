import Foundation
import HTTP
import Logging

/// A CalDAV client (RFC 4791, RFC 6578, RFC 6764) over `HTTPClient`: discovery, listing,
/// sync-collection, multiget, conditional writes, MKCALENDAR and PROPPATCH.
///
/// Every href the server returns goes through `HrefResolver`: members outside their
/// collection or on another host are refused.
///
/// ## Topics
/// - ``discover(_:)``
/// - ``listItems(in:)``
/// - ``syncCollection(_:token:)``
/// - ``multiget(_:hrefs:)``
/// - ``put(_:data:condition:)``
/// - ``delete(_:ifMatch:)``
public final class CalDAVClient: Sendable {
    /// Settings of a `CalDAVClient`.
    public struct Configuration: Sendable {
        /// The HTTP settings: credentials, TLS, parallelism, limits, retries.
        public var http: HTTPClientConfiguration
        /// Hrefs per calendar-multiget REPORT. Default 100.
        public var multigetBatchSize: Int = 100

        /// Settings with `http` and the default batch size.
        public init(http: HTTPClientConfiguration = .init()) { self.http = http }
    }

    /// The settings the client was made with.
    public let configuration: Configuration
    /// The transport, shared by every request of this client.
    public let http: HTTPClient
    /// What the server's answers have shown of it so far (see ``ServerTraits``).
    public let traits = ServerTraits()
    let logger: Logger

    /// - Throws: `HTTPError.invalidRequest` when libcurl cannot be initialised.
    public init(configuration: Configuration = .init(), logger: Logger = Logger(label: "calgw.caldav")) throws {
        self.configuration = configuration
        self.logger = logger
        self.http = try HTTPClient(configuration: configuration.http, logger: logger)
    }

    /// A client sending through `transport` instead of libcurl, so that what the client makes
    /// of a server's answers can be tested against scripted ones (the test support's
    /// `ScriptedTransport`).
    /// - Parameters:
    ///   - configuration: as for `init(configuration:logger:)`.
    ///   - transport: sends each attempt at a request.
    ///   - logger: as for `init(configuration:logger:)`.
    public init(
        configuration: Configuration = .init(), transport: any HTTPTransport,
        logger: Logger = Logger(label: "calgw.caldav")
    ) {
        self.configuration = configuration
        self.logger = logger
        self.http = HTTPClient(configuration: configuration.http, transport: transport, logger: logger)
    }

    /// A request with an XML body and an optional Depth.
    func davRequest(_ method: String, _ url: URL, depth: String?, body: Data?) async throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = []
        if let depth { headers.append(("Depth", depth)) }
        if body != nil { headers.append(("Content-Type", "application/xml; charset=utf-8")) }
        let response = try await http.send(HTTPRequest(method: method, url: url, headers: headers, body: body))
        traits.observe(response)
        if response.url != url, url.absoluteString.hasSuffix("/") {
            traits.noteRelocation(of: url, to: Self.collectionURL(response.url))
        }
        return response
    }

    /// Sends a PROPFIND or REPORT and reads its 207 multistatus.
    /// - Throws: `HTTPError` for any other status.
    func multistatus(_ method: String, _ url: URL, depth: String?, body: Data) async throws -> (
        Multistatus, HTTPResponse
    ) {
        let response = try await multistatusResponse(method, url, depth: depth, body: body)
        return (try Multistatus(response.body), response)
    }

    /// Sends a PROPFIND or REPORT and reads its 207 multistatus as members.
    /// - Throws: `HTTPError` for any other status.
    func members(_ method: String, _ url: URL, depth: String?, body: Data) async throws -> (
        members: [DAVMember], response: HTTPResponse
    ) {
        let response = try await multistatusResponse(method, url, depth: depth, body: body)
        return (try Multistatus.members(of: response.body).members, response)
    }

    /// The answer to a PROPFIND or REPORT, which must be a 207.
    private func multistatusResponse(_ method: String, _ url: URL, depth: String?, body: Data) async throws
        -> HTTPResponse
    {
        let response = try await davRequest(method, url, depth: depth, body: body)
        guard response.status == 207 else {
            throw HTTPError.status(response, method: method, url: url)
        }
        return response
    }

    /// `url` with a trailing slash, as collection URLs are compared and requested.
    static func collectionURL(_ url: URL) -> URL {
        url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/") ?? url
    }
}
