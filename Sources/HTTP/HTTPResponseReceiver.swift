import Foundation

/// What an ``HTTPTransport`` delivers one transfer's response to, as it arrives. It holds the
/// status and headers, and routes the body: a 2xx body goes to the request's `HTTPBodySink`
/// when there is one (never held here, whatever its size), any other body is collected for
/// the client's messages, up to the configured size cap. Keeping this here rather than in a
/// transport means every transport treats bodies alike.
///
/// One receiver serves one transfer. The transport calls it from one thread at a time; the
/// client reads it once the transport has returned.
public final class HTTPResponseReceiver: @unchecked Sendable {
    /// The URL the request was sent to (after redirects), which the sink is told of.
    let url: URL
    /// Where a 2xx body goes, if anywhere.
    let sink: HTTPBodySink?
    /// The most bytes of a collected body, 0 for no limit.
    let maxBodyBytes: Int
    /// The status of the response being received; the transport may correct it at the end.
    var status = 0
    /// The headers of the response being received, in order.
    private(set) var headers: [(name: String, value: String)] = []
    /// The collected body of the response being received (empty when it went to the sink).
    private(set) var body = Data()
    /// True once a collected body passed `maxBodyBytes` (the transfer must stop).
    private(set) var exceededCap = false
    /// Bytes handed to the sink.
    private(set) var streamedBytes = 0
    /// What the sink threw, which ended the transfer.
    private(set) var sinkError: Error?

    /// - Parameters:
    ///   - url: the request's URL, passed to `sink.begin(from:)`.
    ///   - sink: where a 2xx body goes instead of being collected.
    ///   - maxBodyBytes: the cap on a collected body, 0 for none.
    init(url: URL, sink: HTTPBodySink?, maxBodyBytes: Int) {
        self.url = url
        self.sink = sink
        self.maxBodyBytes = maxBodyBytes
    }

    /// True when a 2xx body goes to a sink, so no size cap applies to it.
    var streamsBody: Bool { sink != nil }

    /// A response begins with `status`: what an earlier one (an interim response, an auth
    /// challenge) left is dropped.
    public func startResponse(status: Int) {
        headers.removeAll(keepingCapacity: true)
        body.removeAll(keepingCapacity: true)
        self.status = status
    }

    /// A header of the current response.
    public func addHeader(name: String, value: String) {
        headers.append((name, value))
    }

    /// The next bytes of the current response's body.
    /// - Returns: false when the transfer must stop: the sink threw or the cap was passed.
    public func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let sink, (200..<300).contains(status) {
            do {
                if streamedBytes == 0 { try sink.begin(from: url) }
                try sink.receive(bytes)
                streamedBytes += bytes.count
                return true
            } catch {
                sinkError = error
                return false
            }
        }
        if maxBodyBytes > 0 && body.count + bytes.count > maxBodyBytes {
            exceededCap = true
            return false
        }
        if let base = bytes.baseAddress { body.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        return true
    }
}
