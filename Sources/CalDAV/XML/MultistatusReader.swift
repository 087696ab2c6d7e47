import Foundation
import HTTP

/// Reads a `DAV:multistatus` as it arrives and hands over each `DAV:response` as soon as its
/// end tag is read: memory holds one response at a time, whatever the size of the answer.
/// `Multistatus(_:)` reads a whole body the same way.
///
/// ```swift
/// let reader = try MultistatusReader { response in items.append(try convert(response)) }
/// try reader.feed(chunk)    // as the bytes arrive
/// let token = try reader.finish()
/// ```
///
/// A reader made by `members(_:)` hands over each response as a `DAVMember` instead: what a
/// listing or a fetch of items needs, read without building the response's elements.
public final class MultistatusReader: @unchecked Sendable {
    /// Where the answer came from (after redirects), once the HTTP client said so.
    public private(set) var sourceURL: URL?

    /// The `DAV:sync-token` at the end of a sync-collection answer, once read.
    public private(set) var syncToken: String?
    /// How many responses were handed over.
    public private(set) var responseCount = 0

    private let builder: MultistatusHandler
    private var stream: XMLStream!

    /// - Parameters:
    ///   - maxResponseBytes: the most text one response may hold (a guard against a server
    ///     that never closes an element); the whole answer has no bound.
    ///   - onResponse: called with each response, in document order; what it throws stops the read.
    public convenience init(
        maxResponseBytes: Int = XMLDocumentParser.defaultMaxBytes,
        onResponse: @escaping (DAVResponse) throws -> Void
    ) throws {
        try self.init(builder: Builder(maxResponseBytes: maxResponseBytes, onResponse: onResponse))
    }

    /// A reader handing over each response as a `DAVMember`, in document order (responses
    /// without an href are counted and skipped); what `onMember` throws stops the read.
    /// - Parameter maxResponseBytes: as for `init(maxResponseBytes:onResponse:)`.
    public static func members(
        maxResponseBytes: Int = XMLDocumentParser.defaultMaxBytes,
        _ onMember: @escaping (DAVMember) throws -> Void
    ) throws -> MultistatusReader {
        try MultistatusReader(builder: MemberBuilder(maxResponseBytes: maxResponseBytes, onMember: onMember))
    }

    private init(builder: MultistatusHandler) throws {
        self.builder = builder
        stream = try XMLStream(handler: builder)
    }

    /// Reads the next bytes of the answer.
    /// - Throws: what the handler of responses threw, or `HTTPError.invalidResponse` saying
    ///   what could not be read, where (byte offset, line, the element being read).
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        do { try stream.feed(bytes) } catch { throw describe(error) }
    }

    /// Reads the next bytes of the answer, as `feed(_:)` with a buffer does.
    public func feed(_ data: Data) throws {
        try data.withUnsafeBytes { try feed($0) }
    }

    /// Ends the answer.
    /// - Returns: the sync-token, if the answer had one.
    /// - Throws: as `feed`, and for an answer cut short.
    @discardableResult
    public func finish() throws -> String? {
        do { try stream.finish() } catch { throw describe(error) }
        syncToken = builder.syncToken
        responseCount = builder.count
        return syncToken
    }

    private func describe(_ error: Error) -> Error {
        responseCount = builder.count
        guard let xml = error as? XMLStreamError else { return error }
        let place = builder.path.isEmpty ? "" : " in <\(builder.path.joined(separator: "/"))>"
        let after = builder.count == 0 ? "" : " after \(builder.count) complete responses"
        return HTTPError(
            .invalidResponse,
            "the server's XML response cannot be read: \(xml.message)\(place), at byte \(xml.bytesRead) (line \(xml.line))\(after)",
            recovery:
                "the server sent broken XML; run again, and report it to the server's administrator if it persists",
            cause: xml)
    }

    /// Builds one response's elements into `XMLNode`s and passes it on at its end tag.
    private final class Builder: MultistatusHandler {
        let maxResponseBytes: Int
        let onResponse: (DAVResponse) throws -> Void
        var syncToken: String?
        var count = 0
        /// Local names from the root to the element being read (for error messages).
        var path: [String] = []
        private var depth = 0
        private var stack: [XMLNode] = []
        private var texts: [[UInt8]] = []
        private var responseBytes = 0
        private var readingSyncToken = false
        private var tokenBytes: [UInt8] = []

        init(maxResponseBytes: Int, onResponse: @escaping (DAVResponse) throws -> Void) {
            self.maxResponseBytes = maxResponseBytes
            self.onResponse = onResponse
        }

        func start(namespace: String, name: String, attributes: [String: String]) throws {
            depth += 1
            path.append(name)
            if depth == 1 {
                try Self.requireRoot(namespace: namespace, name: name)
                return
            }
            if depth == 2 {
                if namespace == XMLNamespace.dav && name == "response" {
                    stack = [XMLNode(namespace: namespace, name: name)]
                    texts = [[]]
                    responseBytes = 0
                } else if namespace == XMLNamespace.dav && name == "sync-token" {
                    readingSyncToken = true
                    tokenBytes = []
                }
                return
            }
            guard let parent = stack.last else { return }  // inside an element the reader does not keep
            let node = XMLNode(namespace: namespace, name: name)
            node.attributes = attributes
            parent.children.append(node)
            stack.append(node)
            texts.append([])
        }

        func end() throws {
            defer {
                depth -= 1
                path.removeLast()
            }
            if depth == 2 && readingSyncToken {
                readingSyncToken = false
                syncToken = String(decoding: tokenBytes, as: UTF8.self).trimmingWhitespaceAndNewlines()
                return
            }
            guard depth >= 2, let node = stack.popLast() else { return }
            if responseBytes > maxResponseBytes {
                throw HTTPError(
                    .responseTooLarge,
                    "one response of the server's multistatus holds over \(maxResponseBytes) bytes of text")
            }
            let bytes = texts.removeLast()
            if !bytes.isEmpty { node.text = String(decoding: bytes, as: UTF8.self) }
            if stack.isEmpty {
                count += 1
                if let response = DAVResponse(node) { try onResponse(response) }
            }
        }

        func text(_ bytes: UnsafeRawBufferPointer) {
            if readingSyncToken { tokenBytes.append(contentsOf: bytes); return }
            guard !texts.isEmpty else { return }
            responseBytes += bytes.count
            guard responseBytes <= maxResponseBytes else { return }  // a runaway text is refused at its element's end
            texts[texts.count - 1].append(contentsOf: bytes)
        }
    }
}

/// What reads a multistatus's elements for `MultistatusReader`: it hands over responses, and
/// says what it read so far for messages.
protocol MultistatusHandler: XMLStreamHandler {
    /// The `DAV:sync-token`, once read.
    var syncToken: String? { get }
    /// Responses read so far.
    var count: Int { get }
    /// Local names from the root to the element being read.
    var path: [String] { get }
}

extension MultistatusHandler {
    /// Refuses a document whose root is not `DAV:multistatus` (an HTML login page, an error),
    /// naming what came instead.
    static func requireRoot(namespace: String, name: String) throws {
        guard namespace == XMLNamespace.dav && name == "multistatus" else {
            throw HTTPError(
                .invalidResponse, "the server answered with <\(name)> where a DAV multistatus was expected")
        }
    }
}

extension MultistatusReader: HTTPBodySink {
    /// Records where the answer came from, as `sourceURL`.
    public func begin(from url: URL) throws { sourceURL = url }

    /// Reads the body as the HTTP client receives it (`HTTPClient.send(_:streamingTo:)`).
    public func receive(_ bytes: UnsafeRawBufferPointer) throws { try feed(bytes) }
}
