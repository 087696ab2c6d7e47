import Foundation

/// The reason a server gives in an error body: the preconditions of a `DAV:error` element
/// (`{urn:ietf:params:xml:ns:caldav}valid-calendar-data`), else its first meaningful line.
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
        return firstMeaningfulLine(of: body)
    }

    /// The first line of an error page that says something: markup dropped (an HTML page's
    /// title and headings end lines), white space collapsed, lines without three letters
    /// skipped. A server's page may be a whole stack trace (DAViCal's PHP errors); its first
    /// line says what failed, and the client logs the rest at `-v` (see
    /// ``CalDAVClient/failure(_:method:url:)``).
    static func firstMeaningfulLine(of body: Data) -> String? {
        var text = String(decoding: body.prefix(8000), as: UTF8.self)
        text = text.replacingOccurrences(
            of: "</?(title|h[1-6]|p|br|div|pre|li|tr|body|head)\\b[^>]*>", with: "\n",
            options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
        for line in text.split(whereSeparator: \.isNewline) {
            let plain = line.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            if plain.filter(\.isLetter).count >= 3 { return String(plain.prefix(300)) }
        }
        return nil
    }

    /// The text of `node` and of everything inside it, space-separated.
    private static func allText(of node: XMLNode) -> String {
        ([node.trimmedText] + node.children.map(allText(of:))).filter { !$0.isEmpty }.joined(separator: " ")
    }
}
