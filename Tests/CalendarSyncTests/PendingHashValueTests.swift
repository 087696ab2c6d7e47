import CChecksum
import Foundation
import GRDB
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// The pending hash itself (``ContentHash/pending(for:)``): what it tells apart, how it is
/// written and stored, and what it describes.
struct PendingHashValueTests {
    /// Equal for the same bytes, different for any one byte changed, cut or added, at every
    /// length through a few blocks of the CRC lanes and their zero-padded tail.
    @Test func itTellsEveryByteChangeApart() {
        var seen: Set<ContentHash> = []
        var generator = SystemRandomNumberGenerator()
        for length in 0..<100 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let hash = ContentHash.pending(for: bytes)
            #expect(ContentHash.pending(for: Data(bytes)) == hash)
            #expect(seen.insert(hash).inserted, "length \(length) met an earlier hash")
            #expect(ContentHash.pending(for: bytes + [0]) != hash, "a zero byte added at \(length)")
            for i in 0..<length {
                var changed = bytes
                changed[changed.startIndex + i] ^= 1 << UInt8(i % 8)
                #expect(ContentHash.pending(for: changed) != hash, "byte \(i) of \(length)")
            }
        }
    }

    /// Its text starts `pending:`; the text and the journal's stored form give it back, and it
    /// equals no hash proper, not even of the same bytes.
    @Test func itIsWrittenAndStoredAsItsOwnForm() throws {
        let data = TestEvent.data(uid: "u1", summary: "x", duration: "PT1H")
        let pending = ContentHash.pending(for: data)
        #expect(pending.isPending && pending.value.hasPrefix("pending:") && pending.value.utf8.count == 72)
        #expect(ContentHash(pending.value) == pending && ContentHash(pending.value).isPending)
        #expect(ContentHash.stored(pending.storedValue) == pending)
        if case .blob(let blob) = pending.storedValue.storage {
            #expect(blob.count == 33 && blob.first == UInt8(ascii: "p"))
        } else {
            Issue.record("a pending hash is stored as \(pending.storedValue)")
        }
        let proper = ContentHash.of(data)
        #expect(!proper.isPending && proper != pending)
        #expect(ContentHash(String(pending.value.dropFirst("pending:".count))) != pending)
        #expect(ContentHash("pending:" + proper.value).isPending)
        #expect(!ContentHash("pending:xyz").isPending && ContentHash("pending:xyz").value == "pending:xyz")
    }

    /// What a hash describes: a pending one its very bytes; a hash proper any bytes of the same
    /// meaning.
    @Test func aPendingHashDescribesItsBytesOnly() {
        let data = TestEvent.data(uid: "u1", summary: "x", duration: "PT1H")
        let lf = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").utf8)
        #expect(ContentHash.pending(for: data).describes(data))
        #expect(!ContentHash.pending(for: data).describes(lf))
        #expect(ContentHash.of(data).describes(lf))
        #expect(!ContentHash.of(data).describes(TestEvent.data(uid: "u1", summary: "y", duration: "PT1H")))
    }

    /// A first pull's reading keeps all but the hash: UID, span, kinds, LAST-MODIFIED and
    /// SEQUENCE as the full reading has them, over the corpus of real items; an item
    /// without a UID, keyed by its hash, gets the hash proper.
    @Test func aPendingReadingReadsAsTheFullOne() throws {
        let files = CorpusFiles.icsFiles()
        try #require(files.count > 20, "the corpora under ../shared/corpora are missing")
        var pendingCount = 0
        for url in files {
            let data = try Data(contentsOf: url), name = CorpusFiles.name(of: url)
            let full = ItemContent(data), pending = ItemContent(pendingHashOf: data)
            #expect(pending.uid == full.uid && pending.parses == full.parses, "\(name)")
            #expect(pending.span == full.span && pending.kinds == full.kinds, "\(name)")
            #expect(pending.lastModified == full.lastModified && pending.sequence == full.sequence, "\(name)")
            if full.parses && full.uid != nil {
                #expect(pending.hash == ContentHash.pending(for: data), "\(name)")
                pendingCount += 1
            } else {
                #expect(pending.hash == full.hash, "\(name)")
            }
        }
        #expect(pendingCount > 50, "too few corpus files read with a pending hash: \(pendingCount)")
    }
}
