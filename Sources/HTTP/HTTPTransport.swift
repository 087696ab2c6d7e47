import Foundation

/// Where a request leaves for the wire: sends one ``HTTPTransfer`` and delivers the response
/// to an ``HTTPResponseReceiver`` as it arrives. Everything `HTTPClient` decides — redirects,
/// retries, credentials, 401s, turning failures into `HTTPError`s — happens above it, so a
/// transport that answers from a script lets that logic be tested without a server.
///
/// libcurl (the transport `HTTPClient` makes by default) is the one used in production; the
/// test support's `ScriptedTransport` answers from canned responses.
///
/// A conformer sends each transfer once, exactly as given: it follows no redirect, retries
/// nothing and adds no credentials of its own. It must be safe to call from many tasks at once.
public protocol HTTPTransport: Sendable {
    /// Sends `transfer` once and hands the response to `receiver` as it arrives: each
    /// response's status line (`startResponse(status:)`, again after an interim or challenge
    /// response), its headers (`addHeader(name:value:)`), then its body in chunks
    /// (`receive(_:)`). When `receive` returns false, stop the transfer and return a failure:
    /// the receiver knows why (a full cap, a sink that threw) and the client says so.
    /// - Returns: how the transfer ended: completed, or failed without a complete response.
    /// - Throws: `CancellationError` when the task is cancelled (the transfer is stopped).
    func send(_ transfer: HTTPTransfer, to receiver: HTTPResponseReceiver) async throws -> HTTPTransferOutcome
}
