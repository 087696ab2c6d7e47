import Foundation

/// An XML element with its namespace resolved: what a multistatus is read from.
/// Text children are joined into `text`; prefixes are gone, so `<D:href>`, `<href xmlns="DAV:">`
/// and `<x:href xmlns:x="DAV:">` are all `XMLNode(namespace: "DAV:", name: "href")`.
public final class XMLNode: @unchecked Sendable {
    /// The element's namespace URI, e.g. `DAV:`.
    public let namespace: String
    /// The element's local name, without a prefix.
    public let name: String
    /// The child elements, in document order.
    public internal(set) var children: [XMLNode] = []
    /// The element's text children, joined as they came (see `trimmedText`).
    public internal(set) var text: String = ""
    /// Attributes by local name (prefixes dropped).
    public internal(set) var attributes: [String: String] = [:]

    init(namespace: String, name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// True when this element is `{namespace}name`.
    public func `is`(_ namespace: String, _ name: String) -> Bool {
        self.namespace == namespace && self.name == name
    }

    /// The first child `{namespace}name`.
    public func child(_ namespace: String, _ name: String) -> XMLNode? {
        children.first { $0.is(namespace, name) }
    }

    /// Every child `{namespace}name`.
    public func children(_ namespace: String, _ name: String) -> [XMLNode] {
        children.filter { $0.is(namespace, name) }
    }

    /// The trimmed text of this element.
    public var trimmedText: String { text.trimmingWhitespaceAndNewlines() }
}

extension String {
    /// The string without leading and trailing white space and newlines (as
    /// `CharacterSet.whitespacesAndNewlines`), cutting only the ends: a multiget answer holds
    /// thousands of calendar-data texts, and Foundation's trimming copies each through NSString.
    func trimmingWhitespaceAndNewlines() -> String {
        let scalars = unicodeScalars
        let set = CharacterSet.whitespacesAndNewlines
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, set.contains(scalars[start]) { start = scalars.index(after: start) }
        while end > start, set.contains(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        if start == scalars.startIndex && end == scalars.endIndex { return self }
        return String(scalars[start..<end])
    }
}

/// XML namespaces used by WebDAV and CalDAV.
public enum XMLNamespace {
    /// WebDAV (RFC 4918).
    public static let dav = "DAV:"
    /// CalDAV (RFC 4791).
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// CalendarServer's extensions, such as `getctag`.
    public static let calendarServer = "http://calendarserver.org/ns/"
    /// Apple's iCal extensions, such as `calendar-color`.
    public static let appleICal = "http://apple.com/ns/ical/"
}
