import Foundation
import HTTP

extension CalDAVClient {
    /// One recipient's answer to a free-busy request (RFC 6638 §5.2, `schedule-response`):
    /// its address, its REQUEST-STATUS (`2.0;Success`, `3.7;Invalid calendar user`), and the
    /// VCALENDAR with its VFREEBUSY when there is one.
    public struct FreeBusyAnswer: Sendable, Equatable {
        public var recipient: String
        public var status: String
        public var calendarData: String?
    }

    /// POSTs the VFREEBUSY request `message` (METHOD:REQUEST, the recipients as ATTENDEEs)
    /// to the account's schedule Outbox and reads each recipient's answer.
    /// - Throws: `HTTPError` when the server does not take the request; `XMLParseError` for an
    ///   answer that is not XML.
    public func askFreeBusy(_ message: Data, outbox: URL) async throws -> [FreeBusyAnswer] {
        let root = try XMLDocumentParser.parse(try await postToOutbox(message, outbox).body)
        return root.children(XMLNamespace.caldav, "response").map { answer in
            let recipient = answer.child(XMLNamespace.caldav, "recipient")
            return FreeBusyAnswer(
                recipient: (recipient?.child(XMLNamespace.dav, "href") ?? recipient)?.trimmedText ?? "",
                status: answer.child(XMLNamespace.caldav, "request-status")?.trimmedText ?? "",
                calendarData: answer.child(XMLNamespace.caldav, "calendar-data")?.text)
        }
    }
}

extension CalDAVClient {
    /// POSTs the JSON `body` to `url` with the client's sign-in (Google's Calendar API beside
    /// its CalDAV endpoint) and returns the answer's body.
    /// - Throws: `HTTPError` for any status but 2xx.
    public func postJSON(_ body: Data, to url: URL) async throws -> Data {
        let response = try await http.send(
            HTTPRequest(
                method: "POST", url: url,
                headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
                body: body))
        guard response.isSuccess else { throw failure(response, method: "POST", url: url) }
        return response.body
    }
}
