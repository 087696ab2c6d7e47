import Foundation
import HTTP

/// The reason a server gives in an error body: the preconditions of a `DAV:error` element
/// (`{urn:ietf:params:xml:ns:caldav}valid-calendar-data`), else its first meaningful line
/// (``ServerText``).
enum ServerReason {
    static func extract(from body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        if let root = try? XMLDocumentParser.parse(body, maxBytes: 1 << 20), root.is(XMLNamespace.dav, "error") {
            let names = root.children.map { child -> String in
                let detail = allText(of: child)
                let label =
                    child.namespace == XMLNamespace.caldav
                    ? "CALDAV:\(child.name)"
                    : child.namespace == XMLNamespace.dav ? "DAV:\(child.name)" : child.name
                return detail.isEmpty ? label : "\(label) (\(detail.prefix(200)))"
            }
            let text = root.trimmedText
            if !names.isEmpty { return names.joined(separator: ", ") }
            if !text.isEmpty { return String(text.prefix(300)) }
        }
        return ServerText.firstMeaningfulLine(of: body)
    }

    /// The text of `node` and of everything inside it, space-separated.
    private static func allText(of node: XMLNode) -> String {
        ([node.trimmedText] + node.children.map(allText(of:))).filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension HTTPError {
    /// The error for an unexpected HTTP status from a WebDAV request to `url`, with the reason
    /// its `DAV:error` body (or its first meaningful line) gives.
    static func status(_ status: Int, method: String, url: URL, body: Data) -> HTTPError {
        Self.status(status, method: method, url: url, body: body, reason: ServerReason.extract(from: body))
    }

    /// The error for `response`, an unexpected answer to `method` on `url`: a rate limit when
    /// the client counted it one.
    static func status(_ response: HTTPResponse, method: String, url: URL) -> HTTPError {
        Self.status(
            response.status, method: method, url: url, body: response.body,
            reason: ServerReason.extract(from: response.body), rateLimited: response.rateLimited)
    }
}
