import Foundation
import HTTP

extension CalDAVClient {
    /// Sends a scheduling message (`METHOD:REPLY`, …) by POST to the account's schedule Outbox
    /// (RFC 6638 §5): the server delivers it to the recipients it names, the way a client
    /// schedules where the server will not do it for a stored object.
    /// - Throws: `HTTPError` when the server does not take it (any status but 2xx).
    public func postSchedulingMessage(_ message: Data, to outbox: URL) async throws {
        _ = try await postToOutbox(message, outbox)
    }

    /// POSTs the iCalendar `message` to the schedule Outbox and returns the server's answer.
    /// - Throws: `HTTPError` for any status but 2xx.
    func postToOutbox(_ message: Data, _ outbox: URL) async throws -> HTTPResponse {
        let target = Self.collectionURL(outbox)
        let response = try await http.send(
            HTTPRequest(
                method: "POST", url: target, headers: [("Content-Type", "text/calendar; charset=utf-8")],
                body: message))
        traits.observe(response)
        guard response.isSuccess else { throw failure(response, method: "POST", url: target) }
        return response
    }
}
