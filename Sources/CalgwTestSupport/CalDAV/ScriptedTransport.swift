import CalDAV
import Foundation
import HTTP
import Synchronization

/// An `HTTPTransport` that answers from a script instead of a server, and records every
/// transfer it was given: what `HTTPClient` and `CalDAVClient` make of redirects, retries,
/// 401s, error statuses and multistatus bodies can then be tested without starting one.
///
/// ```swift
/// let transport = ScriptedTransport([.redirect(308, to: "/new/"), .multistatus(xml, chunkSize: 1)])
/// let client = CalDAVClient(transport: transport)
/// let items = try await client.listItems(in: URL(string: "http://dav.test/old/")!)
/// #expect(transport.requests.map(\.url.path) == ["/old/", "/new/"])
/// ```
///
/// A transfer the script has no answer for fails as `.invalidRequest` (not retried, and not
/// a connection failure a test could mistake for the one it scripted).
public final class ScriptedTransport: HTTPTransport {
    private struct State {
        var queue: [ScriptedResponse]
        var transfers: [HTTPTransfer] = []
    }

    private let state: Mutex<State>
    private let answer: (@Sendable (HTTPTransfer, Int) -> ScriptedResponse?)?

    /// A transport giving `responses` in order, one per transfer, whatever was asked.
    public init(_ responses: [ScriptedResponse]) {
        state = Mutex(State(queue: responses))
        answer = nil
    }

    /// A transport asking `answer` for each transfer, with the transfer's index (0 for the
    /// first); nil means the script has no answer for it.
    public init(answer: @escaping @Sendable (HTTPTransfer, Int) -> ScriptedResponse?) {
        state = Mutex(State(queue: []))
        self.answer = answer
    }

    /// Every transfer sent so far, in the order they were sent.
    public var transfers: [HTTPTransfer] { state.withLock { $0.transfers } }

    /// The requests of `transfers`.
    public var requests: [HTTPRequest] { transfers.map(\.request) }

    /// Answers `transfer` with the script's next response, in chunks when it says so.
    public func send(_ transfer: HTTPTransfer, to receiver: HTTPResponseReceiver) async throws -> HTTPTransferOutcome {
        try Task.checkCancellation()
        let (index, queued) = state.withLock { state -> (Int, ScriptedResponse?) in
            state.transfers.append(transfer)
            let next = state.queue.isEmpty ? nil : state.queue.removeFirst()
            return (state.transfers.count - 1, next)
        }
        guard let response = answer.map({ $0(transfer, index) }) ?? queued else {
            let request = transfer.request
            return HTTPTransferOutcome(
                failure: .init(
                    .invalidRequest,
                    "the script has no response for \(request.method) \(request.url) (transfer \(index))"))
        }
        return Self.deliver(response, to: receiver)
    }

    /// Hands `response` to `receiver` as a transport would: status, headers, body chunks.
    private static func deliver(_ response: ScriptedResponse, to receiver: HTTPResponseReceiver) -> HTTPTransferOutcome
    {
        if let scripted = response.failure, scripted.afterBytes == nil {
            return HTTPTransferOutcome(failure: scripted.failure)
        }
        receiver.startResponse(status: response.status)
        for header in response.headers { receiver.addHeader(name: header.name, value: header.value) }
        let end = response.failure?.afterBytes.map { min($0, response.body.count) } ?? response.body.count
        let step = max(1, response.chunkSize ?? end)
        var offset = 0
        let stopped = response.body.withUnsafeBytes { bytes -> Bool in
            while offset < end {
                let next = min(end, offset + step)
                guard receiver.receive(UnsafeRawBufferPointer(rebasing: bytes[offset..<next])) else { return true }
                offset = next
            }
            return false
        }
        if stopped {
            return HTTPTransferOutcome(failure: .init(.connection, "the receiver stopped the transfer"))
        }
        return response.failure.map { HTTPTransferOutcome(failure: $0.failure) } ?? .completed
    }
}
