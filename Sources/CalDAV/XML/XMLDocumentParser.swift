import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses a response body into an `XMLNode` tree with namespaces resolved. Refuses documents
/// with a DTD (no entity expansion, no external loading) and documents over a size bound.
public enum XMLDocumentParser {
    /// Largest document parsed. Default 256 MB, as the HTTP body cap.
    public static let defaultMaxBytes = 256 * 1024 * 1024

    /// - Throws: `CalDAVError.invalidResponse` for malformed XML, a DTD, or too large a body.
    public static func parse(_ data: Data, maxBytes: Int = defaultMaxBytes) throws -> XMLNode {
        guard data.count <= maxBytes else {
            throw CalDAVError(.invalidResponse, "the XML response is \(data.count) bytes, over the \(maxBytes) byte bound")
        }
        if containsDoctype(data) {
            throw CalDAVError(.invalidResponse, "the server's XML response declares a DTD, which calgw refuses to load",
                              recovery: "this is not a CalDAV server response; check the URL")
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let reason = parser.parserError.map { String(describing: $0) } ?? "no root element"
            throw CalDAVError(.invalidResponse, "the server's XML response cannot be read (\(reason))",
                              recovery: "check that the URL points at a CalDAV server")
        }
        return root
    }

    /// A DTD can only come before the root element, so the start of the document is enough.
    private static func containsDoctype(_ data: Data) -> Bool {
        String(decoding: data.prefix(4096), as: UTF8.self).range(of: "<!DOCTYPE", options: .caseInsensitive) != nil
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var root: XMLNode?
        private var stack: [XMLNode] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let node = XMLNode(namespace: namespaceURI ?? "", name: elementName)
            for (key, value) in attributeDict {
                let local = key.split(separator: ":").last.map(String.init) ?? key
                node.attributes[local] = value
            }
            if let parent = stack.last { parent.children.append(node) } else if root == nil { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
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
