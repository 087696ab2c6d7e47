import Foundation
import HTTP

/// One `DAV:response` of a multistatus: its href, its own status (for gone members) and
/// the properties found (from `propstat`s with a 2xx status).
public struct DAVResponse: @unchecked Sendable {
    /// The first `DAV:href`, trimmed.
    public var href: String
    /// The response-level status (e.g. 404 for a removed member in sync-collection).
    public var status: Int?
    /// Properties that came back with a 2xx propstat.
    public var properties: [XMLNode]

    /// The property `{namespace}name`, when found.
    public func property(_ namespace: String, _ name: String) -> XMLNode? {
        properties.first { $0.is(namespace, name) }
    }

    /// The trimmed text of a property, nil when absent or empty.
    public func text(_ namespace: String, _ name: String) -> String? {
        guard let text = property(namespace, name)?.trimmedText, !text.isEmpty else { return nil }
        return text
    }

    /// True when `resourcetype` contains `{namespace}name`.
    public func hasResourceType(_ namespace: String, _ name: String) -> Bool {
        property(XMLNamespace.dav, "resourcetype")?.child(namespace, name) != nil
    }
}

extension DAVResponse {
    /// The response an element `DAV:response` holds; nil without an href. RFC 4918 allows
    /// several hrefs in a response with a status: the first counts.
    init?(_ node: XMLNode) {
        guard let href = node.child(XMLNamespace.dav, "href")?.trimmedText else { return nil }
        let status = node.child(XMLNamespace.dav, "status").flatMap { Multistatus.statusCode($0.trimmedText) }
        var properties: [XMLNode] = []
        for propstat in node.children(XMLNamespace.dav, "propstat") {
            let code =
                propstat.child(XMLNamespace.dav, "status").flatMap { Multistatus.statusCode($0.trimmedText) } ?? 200
            guard (200..<300).contains(code) else { continue }
            for prop in propstat.children(XMLNamespace.dav, "prop") { properties.append(contentsOf: prop.children) }
        }
        self.init(href: href, status: status, properties: properties)
    }
}

/// A `DAV:multistatus` body (RFC 4918 §13), and the sync-token of a sync-collection answer.
public struct Multistatus: @unchecked Sendable {
    /// The responses, in document order.
    public var responses: [DAVResponse]
    /// The `DAV:sync-token` of a sync-collection answer; nil for other answers.
    public var syncToken: String?

    /// Reads a whole body (as `MultistatusReader` does, one response at a time).
    /// - Throws: `HTTPError.invalidResponse` when the body is not a multistatus.
    public init(_ data: Data) throws {
        var responses: [DAVResponse] = []
        syncToken = try Self.read(data, with: try MultistatusReader { responses.append($0) })
        self.responses = responses
    }

    /// The members of a whole body, read as `MultistatusReader.members(_:)` reads them, and
    /// the sync-token of a sync-collection answer.
    /// - Throws: `HTTPError.invalidResponse` when the body is not a multistatus.
    public static func members(of data: Data) throws -> (members: [DAVMember], syncToken: String?) {
        var members: [DAVMember] = []
        let token = try read(data, with: try MultistatusReader.members { members.append($0) })
        return (members, token)
    }

    /// Feeds a whole body within the size bound to `reader`; returns its sync-token.
    private static func read(_ data: Data, with reader: MultistatusReader) throws -> String? {
        guard data.count <= XMLDocumentParser.defaultMaxBytes else {
            throw HTTPError(
                .invalidResponse,
                "the XML response is \(data.count) bytes, over the \(XMLDocumentParser.defaultMaxBytes) byte bound")
        }
        try reader.feed(data)
        return try reader.finish()
    }

    /// The code in a status line such as `HTTP/1.1 404 Not Found`: the second word, as
    /// `line.split(separator: " ")[1]`, without splitting the line.
    static func statusCode(_ line: String) -> Int? {
        var line = line
        return line.withUTF8 { statusCode($0) }
    }

    /// `statusCode(_:)` of a line's UTF-8, read from its bytes: the second word as `Int(_:)`
    /// reads it (a sign, then decimal digits, nil past `Int`'s range). Parsed through a
    /// `Substring`, the code of each propstat cost some 1,400 instructions.
    static func statusCode(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let space = UInt8(ascii: " "), n = bytes.count
        var i = 0
        while i < n, bytes[i] == space { i += 1 }
        while i < n, bytes[i] != space { i += 1 }
        while i < n, bytes[i] == space { i += 1 }
        var end = i
        while end < n, bytes[end] != space { end += 1 }
        let negative = i < end && bytes[i] == UInt8(ascii: "-")
        if i < end, negative || bytes[i] == UInt8(ascii: "+") { i += 1 }
        guard i < end else { return nil }
        var value = 0
        for position in i..<end {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (tens, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, past) =
                negative ? tens.subtractingReportingOverflow(Int(digit)) : tens.addingReportingOverflow(Int(digit))
            guard !overflowed, !past else { return nil }
            value = next
        }
        return value
    }
}
