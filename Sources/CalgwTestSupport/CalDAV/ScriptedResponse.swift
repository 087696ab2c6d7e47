import CalDAV
import Foundation
import HTTP

/// One canned answer of a `ScriptedTransport`: a status, headers and a body, delivered whole
/// or in chunks of `chunkSize` bytes, and optionally a failure that ends the transfer (before
/// any response, or partway through the body).
public struct ScriptedResponse: Sendable {
    /// The status line's code. Ignored when the failure comes before any response.
    public var status: Int
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data
    /// Bytes handed over per call, as a network delivers them; nil for the whole body at once.
    public var chunkSize: Int?
    /// How the transfer fails, if it does: after `afterBytes` bytes of the body (nil: before
    /// any response arrives).
    public var failure: (failure: HTTPTransferOutcome.Failure, afterBytes: Int?)?

    /// - Parameters:
    ///   - status: the status line's code.
    ///   - headers: header fields, in order.
    ///   - body: the body.
    ///   - chunkSize: bytes per delivery; nil for the whole body at once.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data(), chunkSize: Int? = nil)
    {
        self.status = status
        self.headers = headers
        self.body = body
        self.chunkSize = chunkSize
    }

    /// A response with a text body (UTF-8).
    public init(status: Int, headers: [(name: String, value: String)] = [], text: String, chunkSize: Int? = nil) {
        self.init(status: status, headers: headers, body: Data(text.utf8), chunkSize: chunkSize)
    }

    /// A 207 Multi-Status with `xml` as its body.
    public static func multistatus(_ xml: String, chunkSize: Int? = nil) -> ScriptedResponse {
        ScriptedResponse(
            status: 207, headers: [("Content-Type", "application/xml; charset=utf-8")], text: xml, chunkSize: chunkSize)
    }

    /// A redirect to `location` (absolute or relative, as a server may send it).
    public static func redirect(_ status: Int = 301, to location: String) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Location", location)])
    }

    /// No response at all: the transfer failed with `kind` before a status line arrived.
    public static func failure(_ kind: HTTPTransferOutcome.Failure.Kind, _ text: String) -> ScriptedResponse {
        var response = ScriptedResponse(status: 0)
        response.failure = (.init(kind, text), nil)
        return response
    }

    /// No response at all: the connection could not be made (or was lost before a status line).
    public static func connectionFailure(_ text: String = "Couldn't connect to server") -> ScriptedResponse {
        failure(.connection, text)
    }

    /// This response with the connection lost after `bytes` bytes of its body.
    public func cut(after bytes: Int, _ text: String = "Connection reset by peer") -> ScriptedResponse {
        var response = self
        response.failure = (.init(.connection, text), bytes)
        return response
    }
}
