import Foundation

/// The reason a server gives in an error body: the preconditions of a `DAV:error` element
/// (`{urn:ietf:params:xml:ns:caldav}valid-calendar-data`), else a short piece of its text.
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
        var text = String(decoding: body.prefix(2000), as: UTF8.self)
        // Drop markup of HTML error pages.
        text = text.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
        text = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return text.isEmpty ? nil : String(text.prefix(300))
    }

    /// The text of `node` and of everything inside it, space-separated.
    private static func allText(of node: XMLNode) -> String {
        ([node.trimmedText] + node.children.map(allText(of:))).filter { !$0.isEmpty }.joined(separator: " ")
    }
}
