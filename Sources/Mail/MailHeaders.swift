/// One header block (RFC 5322 §2.2): the fields in order, unfolded, names matched without case.
///
/// Values are kept as written (encoded words still encoded); ``EncodedWords`` decodes the
/// ones meant for people (Subject, display names).
struct MailHeaders: Sendable {
    /// The fields in the order they came, each name as written and its unfolded value.
    private(set) var fields: [(name: String, value: String)] = []

    /// The first field named `name` (any case), its value trimmed.
    func value(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every field named `name` (any case), in order.
    func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Reads the header block at the start of `bytes` and says where the body starts: after the
    /// first empty line, or at the end when there is none.
    ///
    /// Lines end in CRLF or a bare LF (files saved on Unix). A line starting with a space or tab
    /// continues the field before it. A line without a colon that continues nothing is
    /// skipped, as mail readers do with the `From ` line of an mbox.
    /// - Throws: ``MailError`` when a line is longer than the limit, or there are too many fields.
    static func parse(_ bytes: ArraySlice<UInt8>, limits: MailLimits) throws -> (MailHeaders, body: Int) {
        var headers = MailHeaders()
        var index = bytes.startIndex
        var current: (name: String, value: [UInt8])?
        func finish() {
            if let field = current {
                let value = String(decoding: field.value, as: UTF8.self)
                headers.fields.append((field.name, value.trimmingWhitespace()))
            }
            current = nil
        }
        while index < bytes.endIndex {
            let line = bytes.line(at: index)
            if line.content.count > limits.maximumHeaderLineLength {
                throw MailError(
                    .headerLineTooLong,
                    "a header line is \(line.content.count) bytes long, more than the \(limits.maximumHeaderLineLength) allowed"
                )
            }
            index = line.next
            if line.content.isEmpty {
                finish()
                return (headers, index)
            }
            let first = line.content[line.content.startIndex]
            if first == .space || first == .tab {
                current?.value.append(contentsOf: line.content)
                continue
            }
            finish()
            guard let colon = line.content.firstIndex(of: .colon) else { continue }
            let name = String(decoding: line.content[..<colon], as: UTF8.self).trimmingWhitespace()
            guard !name.isEmpty, !name.contains(" ") else { continue }
            if headers.fields.count >= limits.maximumHeaderFields {
                throw MailError(
                    .tooManyHeaders, "a header block has more than \(limits.maximumHeaderFields) fields")
            }
            current = (name, Array(line.content[(colon + 1)...]))
        }
        finish()
        return (headers, bytes.endIndex)
    }
}

/// A structured header value of the form `token; name=value; name="quoted value"`: Content-Type
/// and Content-Disposition (RFC 2045 §5.1, RFC 2183).
struct HeaderParameters: Sendable {
    /// The part before the first `;`, lower-cased: `text/calendar`, `attachment`.
    var value: String
    /// The parameters, names lower-cased, quotes and backslash escapes removed. An RFC 2231
    /// name (`filename*`, `filename*0`) is kept under its bare name, its value as written.
    var parameters: [String: String]

    init(_ text: String) {
        var parameters: [String: String] = [:]
        let pieces = text.splitOutsideQuotes(separator: ";")
        value = (pieces.first ?? "").trimmingWhitespace().lowercased()
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            var name = piece[..<equals].trimmingWhitespace().lowercased()
            if let star = name.firstIndex(of: "*") { name = String(name[..<star]) }
            let raw = piece[piece.index(after: equals)...].trimmingWhitespace()
            if parameters[name] == nil { parameters[name] = raw.unquoted() }
        }
        self.parameters = parameters
    }
}
