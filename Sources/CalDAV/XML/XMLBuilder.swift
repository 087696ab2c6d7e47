import Foundation

/// Builds request bodies (PROPFIND, REPORT, MKCALENDAR, PROPPATCH) as XML with fixed
/// prefixes: `d` DAV:, `c` CalDAV, `cs` calendarserver.org, `ic` Apple iCal. Text is escaped.
public struct XMLBuilder: Sendable {
    /// An element: `prefix:name`, attributes, children or text.
    public indirect enum Element: Sendable {
        /// An element `prefix:name` with attributes and child elements.
        case element(String, attributes: [(String, String)] = [], children: [Element] = [])
        /// An element `prefix:name` (the first value) holding text (the second), escaped.
        case text(String, String)

        /// An empty element `prefix:name`.
        public static func empty(_ name: String) -> Element { .element(name) }
        /// An element with children.
        public static func node(_ name: String, _ children: [Element]) -> Element { .element(name, children: children) }
    }

    private static let namespaceDeclarations =
        #" xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ic="http://apple.com/ns/ical/""#

    /// The document for `root`, with the XML declaration and every namespace declared on it.
    public static func document(_ root: Element) -> Data {
        var out = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        write(root, into: &out, isRoot: true)
        return Data(out.utf8)
    }

    private static func write(_ element: Element, into out: inout String, isRoot: Bool) {
        switch element {
        case .text(let name, let value):
            out += "<\(name)\(isRoot ? namespaceDeclarations : "")>\(escape(value))</\(name)>"
        case .element(let name, let attributes, let children):
            out += "<\(name)\(isRoot ? namespaceDeclarations : "")"
            for (key, value) in attributes { out += " \(key)=\"\(escape(value))\"" }
            if children.isEmpty {
                out += "/>"
            } else {
                out += ">"
                for child in children { write(child, into: &out, isRoot: false) }
                out += "</\(name)>"
            }
        }
    }

    /// Escapes `&`, `<`, `>`, `"` and `'`.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }
}
