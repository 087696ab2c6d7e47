import Foundation

/// One attempt at a request as `HTTPClient` hands it to its ``HTTPTransport``: the request
/// (at the URL a redirect led to) with the credentials it may carry there, and the settings
/// a transport applies. A transport sends it as given; the client decided everything in it.
public struct HTTPTransfer: Sendable {
    /// The request: method, URL, headers, body.
    public var request: HTTPRequest
    /// The credentials to send: `.none` where they must not go (another origin after a
    /// redirect), Basic where `.any` sends Basic first (see `HTTPClient`).
    public var authentication: HTTPAuthentication
    /// The bearer token to send as `Authorization: Bearer`, when the client uses one.
    public var bearerToken: String?
    /// The client's settings: TLS, timeouts, User-Agent, compression, the response size cap.
    public var configuration: HTTPClientConfiguration
    /// Keep the header lines sent and received (the client's logger is at `.trace`), for a
    /// transport that can.
    public var tracesWire: Bool

    /// - Parameters: the members, as documented on each.
    public init(
        request: HTTPRequest, authentication: HTTPAuthentication, bearerToken: String? = nil,
        configuration: HTTPClientConfiguration, tracesWire: Bool = false
    ) {
        self.request = request
        self.authentication = authentication
        self.bearerToken = bearerToken
        self.configuration = configuration
        self.tracesWire = tracesWire
    }
}
