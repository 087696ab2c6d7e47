import CalDAV
import Crypto
import Foundation
import HTTP

/// Takes a feed's body from the HTTP client as it arrives: splits it into items, hashes it
/// and counts it, throwing (which aborts the transfer) once it passes the size cap. Only the
/// split items are kept, never the body.
final class FeedReader: HTTPBodySink, @unchecked Sendable {
    private var splitter: FeedSplitter
    private var hasher = SHA256()
    private let maxBytes: Int
    private(set) var bytes = 0
    private(set) var started = false

    init(maxBytes: Int, maxLineLength: Int) {
        self.maxBytes = maxBytes
        self.splitter = FeedSplitter(maxLineLength: maxLineLength)
    }

    func begin(from url: URL) throws {
        started = true
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        bytes += chunk.count
        if bytes > maxBytes {
            throw SubscriptionError(
                .tooLarge, "the feed is larger than \(maxBytes) bytes",
                recovery: "raise max_response_size in the pair if the feed is right")
        }
        hasher.update(bufferPointer: chunk)
        try splitter.consume(chunk)
    }

    /// The items and the body's digest, once the transfer ended.
    func finish() throws -> (items: [FeedSplitter.Item], digest: String) {
        let items = try splitter.finish()
        return (items, ContentHash.hex(hasher.finalize()))
    }
}
