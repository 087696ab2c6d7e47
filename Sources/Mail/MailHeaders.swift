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
    /// The parameters, names lower-cased, quotes and backslash escapes removed. RFC 2231's
    /// forms are read into the bare name: continuations (`filename*0`, `filename*1`) joined in
    /// order, and an extended value (`filename*=utf-8''%E2%82%AC.ics`) percent-decoded in its
    /// charset (``Charset``'s; UTF-8 for any other).
    var parameters: [String: String]

    init(_ text: String) {
        var plain: [String: String] = [:]
        /// name → (section, encoded, value as written)
        var sections: [String: [(index: Int, encoded: Bool, value: String)]] = [:]
        let pieces = text.splitOutsideQuotes(separator: ";")
        value = (pieces.first ?? "").trimmingWhitespace().lowercased()
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let fullName = piece[..<equals].trimmingWhitespace().lowercased()
            let raw = piece[piece.index(after: equals)...].trimmingWhitespace()
            guard let star = fullName.firstIndex(of: "*") else {
                if plain[fullName] == nil { plain[fullName] = raw.unquoted() }
                continue
            }
            let name = String(fullName[..<star])
            let rest = fullName[fullName.index(after: star)...]
            let encoded = rest.hasSuffix("*") || rest.isEmpty
            let number = Int(rest.hasSuffix("*") ? rest.dropLast() : rest) ?? 0
            sections[name, default: []].append((number, encoded, raw.unquoted()))
        }
        for (name, parts) in sections {
            plain[name] = Self.joined(parts.sorted { $0.index < $1.index })
        }
        parameters = plain
    }

    /// An RFC 2231 value from its sections: the charset from the first encoded one
    /// (`charset'language'…`), percent-escapes decoded in the encoded ones.
    private static func joined(_ parts: [(index: Int, encoded: Bool, value: String)]) -> String {
        var charset = "utf-8"
        var bytes: [UInt8] = []
        for (i, part) in parts.enumerated() {
            var value = Substring(part.value)
            if part.encoded && i == 0 {
                let quotes = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if quotes.count == 3 {
                    if !quotes[0].isEmpty { charset = quotes[0].lowercased() }
                    value = quotes[2]
                }
            }
            guard part.encoded else {
                bytes += Array(value.utf8)
                continue
            }
            var utf8 = Array(value.utf8)[...]
            while let first = utf8.first {
                utf8 = utf8.dropFirst()
                if first == UInt8(ascii: "%"), utf8.count >= 2,
                    let byte = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                {
                    bytes.append(byte)
                    utf8 = utf8.dropFirst(2)
                } else {
                    bytes.append(first)
                }
            }
        }
        return ((try? Charset(name: charset)) ?? .utf8).decode(bytes)
    }
}
