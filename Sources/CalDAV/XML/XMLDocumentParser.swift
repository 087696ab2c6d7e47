import Foundation
import HTTP
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Parses a response body into an `XMLNode` tree with namespaces resolved. Refuses documents
/// with a DTD (no entity expansion, no external loading), documents over a size bound, and
/// bytes that are not UTF-8 (FoundationXML traps on some invalid UTF-8 in element names).
public enum XMLDocumentParser {
    /// Largest document parsed. Default 256 MB, as the HTTP body cap.
    public static let defaultMaxBytes = 256 * 1024 * 1024

    /// - Throws: `HTTPError.invalidResponse` for malformed XML, a DTD, bytes that are not
    ///   UTF-8, or too large a body.
    public static func parse(_ data: Data, maxBytes: Int = defaultMaxBytes) throws -> XMLNode {
        guard data.count <= maxBytes else {
            throw HTTPError(
                .invalidResponse, "the XML response is \(data.count) bytes, over the \(maxBytes) byte bound")
        }
        if let offset = firstInvalidUTF8(data) {
            throw HTTPError(
                .invalidResponse, "the server's XML response is not valid UTF-8 (at byte \(offset))",
                recovery: "CalDAV answers are UTF-8; check the URL, or report the server bug")
        }
        if let offset = firstProcessingInstruction(data) ?? firstDatalessProcessingInstruction(data) {
            throw HTTPError(
                .invalidResponse,
                "the server's XML response holds a processing instruction (at byte \(offset)), which calgw refuses",
                recovery: "this is not a CalDAV server response; check the URL")
        }
        if containsDoctype(data) {
            throw HTTPError(
                .invalidResponse, "the server's XML response declares a DTD, which calgw refuses to load",
                recovery: "this is not a CalDAV server response; check the URL")
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        parser.delegate = builder
        let parsed = parser.parse()
        if builder.declaresEntity {
            throw HTTPError(
                .invalidResponse, "the server's XML response declares entities, which calgw refuses to expand",
                recovery: "this is not a CalDAV server response; check the URL")
        }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { String(describing: $0) } ?? "no root element"
            throw HTTPError(
                .invalidResponse, "the server's XML response cannot be read (\(reason))",
                recovery: "check that the URL points at a CalDAV server")
        }
        return root
    }

    /// The offset of the first byte that does not belong to a UTF-8 sequence (overlong forms,
    /// surrogates and code points over U+10FFFF included), nil when all of `data` is UTF-8.
    static func firstInvalidUTF8(_ data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                if b < 0x80 { i += 1; continue }
                let length: Int, low: UInt8, high: UInt8
                switch b {
                case 0xC2...0xDF: length = 2; low = 0x80; high = 0xBF
                case 0xE0: length = 3; low = 0xA0; high = 0xBF
                case 0xE1...0xEC, 0xEE...0xEF: length = 3; low = 0x80; high = 0xBF
                case 0xED: length = 3; low = 0x80; high = 0x9F
                case 0xF0: length = 4; low = 0x90; high = 0xBF
                case 0xF1...0xF3: length = 4; low = 0x80; high = 0xBF
                case 0xF4: length = 4; low = 0x80; high = 0x8F
                default: return i
                }
                guard i + length <= n, (low...high).contains(bytes[i + 1]) else { return i }
                for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { return i }
                i += length
            }
            return nil
        }
    }

    /// The offset of the first processing instruction other than the XML declaration, nil when
    /// there is none. CalDAV bodies have no use for them, and FoundationXML crashes on one
    /// without data (`<?x?>`). Comments and CDATA sections are skipped; elsewhere `<` always
    /// starts markup.
    static func firstProcessingInstruction(_ data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            func starts(_ pattern: [UInt8], at index: Int) -> Bool {
                index + pattern.count <= bytes.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
            }
            func index(of pattern: [UInt8], from start: Int) -> Int? {
                var j = start
                while j + pattern.count <= bytes.count {
                    if bytes[j] == pattern[0] && starts(pattern, at: j) { return j }
                    j += 1
                }
                return nil
            }
            let comment = Array("<!--".utf8), cdata = Array("<![CDATA[".utf8), pi = Array("<?".utf8)
            var i = starts([0xEF, 0xBB, 0xBF], at: 0) ? 3 : 0
            if starts(Array("<?xml".utf8), at: i), i + 5 < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i + 5])
            {
                // Its values cannot hold `>`: a first `>` without `?` is a broken declaration,
                // after which libxml2 reads on and would meet whatever the body hides.
                guard let end = index(of: [UInt8(ascii: ">")], from: i + 5) else { return i }
                guard bytes[end - 1] == UInt8(ascii: "?") else { return i }
                i = end + 1
            }
            while let lt = index(of: [UInt8(ascii: "<")], from: i) {
                if starts(comment, at: lt) {
                    guard let end = index(of: Array("-->".utf8), from: lt + 4) else { return nil }
                    i = end + 3
                } else if starts(cdata, at: lt) {
                    guard let end = index(of: Array("]]>".utf8), from: lt + 9) else { return nil }
                    i = end + 3
                } else if starts(pi, at: lt) {
                    return lt
                } else {
                    i = lt + 1
                }
            }
            return nil
        }
    }

    /// The offset of the first `<?name?>` anywhere in `data`, comments and CDATA sections
    /// included; nil when there is none. libxml2 reports such a processing instruction with a
    /// null data pointer, which FoundationXML hands to `strlen`. FoundationXML parses in recovery
    /// mode, so after an error libxml2 may read as markup what `firstProcessingInstruction` took
    /// for a comment (`<x<!--\v<?u?>`, found by fuzzing): this check trusts no such reading.
    static func firstDatalessProcessingInstruction(_ data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let n = bytes.count
            var i = 0
            while i + 4 <= n {
                guard bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "?") else { i += 1; continue }
                var j = i + 2
                while j < n, !Self.endsProcessingInstructionTarget(bytes[j]) { j += 1 }
                if j > i + 2, j + 1 < n, bytes[j] == UInt8(ascii: "?"), bytes[j + 1] == UInt8(ascii: ">") { return i }
                i += 2
            }
            return nil
        }
    }

    /// Bytes that end a processing instruction's target: white space, `?`, `<` and `>`.
    private static func endsProcessingInstructionTarget(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?"), UInt8(ascii: "<"), UInt8(ascii: ">"): true
        default: false
        }
    }

    /// True when the prolog (what comes before the root element: the XML declaration,
    /// processing instructions, comments, white space) holds a `<!DOCTYPE`, however long it is.
    static func containsDoctype(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in containsDoctype(raw.bindMemory(to: UInt8.self)) }
    }

    private static func containsDoctype(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func starts(_ text: String, at index: Int) -> Bool {
            let pattern = Array(text.utf8)
            guard index + pattern.count <= bytes.count else { return false }
            for (k, p) in pattern.enumerated() where bytes[index + k] | 0x20 != p | 0x20 { return false }
            return true
        }
        func skip(past end: String, from index: Int) -> Int? {
            let pattern = Array(end.utf8)
            var j = index
            while j + pattern.count <= bytes.count {
                if bytes[j] == pattern[0] && bytes[j..<(j + pattern.count)].elementsEqual(pattern) {
                    return j + pattern.count
                }
                j += 1
            }
            return nil
        }
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            case UInt8(ascii: "<"):
                if starts("<!DOCTYPE", at: i) { return true }
                if starts("<?", at: i) {
                    guard let next = skip(past: "?>", from: i + 2) else { return false }; i = next
                } else if starts("<!--", at: i) {
                    guard let next = skip(past: "-->", from: i + 4) else { return false }; i = next
                } else {
                    return false
                }
            default: return false
            }
        }
        return false
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var root: XMLNode?
        /// Set (and parsing stopped) when the document declares an entity: a DTD that got past
        /// the prolog check is never expanded.
        var declaresEntity = false
        private var stack: [XMLNode] = []

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
            declaresEntity = true
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?,
            systemID: String?
        ) {
            declaresEntity = true
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            let node = XMLNode(namespace: namespaceURI ?? "", name: elementName)
            for (key, value) in attributeDict {
                let local = key.split(separator: ":").last.map(String.init) ?? key
                node.attributes[local] = value
            }
            if let parent = stack.last { parent.children.append(node) } else if root == nil { root = node }
            stack.append(node)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            nil
        }
    }
}
