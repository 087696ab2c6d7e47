import CXMLStream
import Failures
import Foundation
import HTTP

/// Receives what an `XMLStream` reads, in document order. A handler that throws stops the
/// parse; the error is the one `feed` or `finish` then throws.
protocol XMLStreamHandler: AnyObject {
    /// An element starts (`namespace` is "" for none), with its attributes by local name.
    func start(namespace: String, name: String, attributes: [String: String]) throws
    /// The current element ends.
    func end() throws
    /// Text of the current element, in pieces (a text may arrive in several).
    func text(_ bytes: UnsafeRawBufferPointer)
    /// `text(_:)`, told whether the piece is a CDATA section's whose line ends are all CRLF
    /// (checked as the section was read); false for any other piece, whatever its line ends.
    func text(_ bytes: UnsafeRawBufferPointer, crlf: Bool)
}

extension XMLStreamHandler {
    func text(_ bytes: UnsafeRawBufferPointer, crlf: Bool) { text(bytes) }
}

/// XML read as it arrives, over libxml2's push parser (`CXMLStream`): feed bytes in any
/// pieces, the handler hears each element as soon as it is complete, and no document is held
/// whole. A 50 MB multistatus costs the memory of one `DAV:response` at a time.
///
/// Refuses DTDs, entity declarations and processing instructions, and never touches the
/// network (see `CXMLStream.h`).
final class XMLStream {
    private let handler: XMLStreamHandler
    private var stream: OpaquePointer?
    /// The first error a handler threw.
    private var handlerError: Error?
    /// Names and namespaces by libxml2's interned pointer, in the order first met: each of the
    /// first `namesKept` becomes a Swift string once, not once per element, and is found by
    /// comparing pointers (a multistatus has a dozen; hashing the pointer cost more). Read and
    /// written by libxml2's callbacks only, one at a time: not checked for overlapping access
    /// at run time.
    @exclusivity(unchecked) private var names: [(pointer: UnsafeRawPointer, name: String)] = []
    private static let namesKept = 64

    /// - Throws: `HTTPError.invalidResponse` when libxml2 cannot make a parser.
    init(handler: XMLStreamHandler) throws {
        self.handler = handler
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard
            let stream = cxml_stream_create(
                { context, name, namespace, count, attributes in
                    Unmanaged<XMLStream>.fromOpaque(context!).takeUnretainedValue().started(
                        name!, namespace!, count, attributes)
                },
                { context in
                    Unmanaged<XMLStream>.fromOpaque(context!).takeUnretainedValue().ended()
                },
                { context, bytes, length, crlf in
                    Unmanaged<XMLStream>.fromOpaque(context!).takeUnretainedValue()
                        .handler.text(UnsafeRawBufferPointer(start: bytes, count: length), crlf: crlf != 0)
                }, context)
        else {
            throw HTTPError(.invalidResponse, "the XML reader could not be set up")
        }
        self.stream = stream
    }

    deinit { cxml_stream_free(stream) }

    /// Bytes fed so far.
    var bytesFed: Int64 { Int64(cxml_stream_bytes_fed(stream)) }

    /// Parses the next piece of the document.
    /// - Throws: what the handler threw, or `XMLStreamError` for XML that is not well-formed or is refused.
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
        if cxml_stream_feed(stream, base, bytes.count, 0) != 0 { throw failure() }
    }

    /// Ends the document.
    /// - Throws: as `feed`, also for a document cut short.
    func finish() throws {
        if cxml_stream_feed(stream, "", 0, 1) != 0 { throw failure() }
    }

    private func name(_ pointer: UnsafePointer<CChar>) -> String {
        let key = UnsafeRawPointer(pointer)
        for i in names.indices where names[i].pointer == key { return names[i].name }
        let made = String(cString: pointer)
        if names.count < Self.namesKept { names.append((key, made)) }
        return made
    }

    private func started(
        _ localName: UnsafePointer<CChar>, _ namespace: UnsafePointer<CChar>,
        _ count: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) {
        var values: [String: String] = [:]
        if count > 0, let attributes {
            for i in 0..<Int(count) {
                guard let local = attributes[5 * i], let start = attributes[5 * i + 3], let end = attributes[5 * i + 4]
                else { continue }
                let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
                values[name(local)] = String(decoding: bytes, as: UTF8.self)
            }
        }
        do { try handler.start(namespace: name(namespace), name: name(localName), attributes: values) } catch {
            stop(error)
        }
    }

    private func ended() {
        do { try handler.end() } catch { stop(error) }
    }

    private func stop(_ error: Error) {
        if handlerError == nil { handlerError = error }
        cxml_stream_stop(stream, "stopped by its reader")
    }

    private func failure() -> Error {
        if let handlerError { return handlerError }
        let message = cxml_stream_error(stream).map { String(cString: $0) } ?? "the document is not well-formed XML"
        return XMLStreamError(
            message: message, line: Int(cxml_stream_error_line(stream)),
            column: Int(cxml_stream_error_column(stream)), bytesRead: bytesFed)
    }
}

/// XML that could not be read: libxml2's reason and where it found it.
struct XMLStreamError: Error, CustomStringConvertible {
    var message: String
    var line: Int
    var column: Int
    /// Bytes of the document read when the error was found.
    var bytesRead: Int64

    var description: String {
        line > 0
            ? "\(message) at line \(line), column \(column) (within the first \(bytesRead) bytes)"
            : "\(message) (within the first \(bytesRead) bytes)"
    }
}

extension XMLStreamError: ExplainedError {
    var errorCode: String { "invalidXML" }
    var recovery: String? { nil }
    var cause: (any Error)? { nil }
}
