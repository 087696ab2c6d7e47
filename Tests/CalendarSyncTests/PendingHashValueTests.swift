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

    /// What the hash's reading leaves to the parse, the pending one reads as the parse does:
    /// text the writer refuses (a combining mark, in a SUMMARY and in the UID), a name in
    /// lower case, a TZID without its VTIMEZONE, a UID with spaces around it, no UID at all.
    @Test func whatTheParseReadsThePendingReadingReadsAlike() {
        let cases = [
            TestEvent.ics(uid: "a", summary: "e\u{301}te", duration: "PT1H"),
            TestEvent.ics(uid: "e\u{301}", summary: "x", duration: "PT1H"),
            TestEvent.ics(uid: "b", summary: "x", duration: "PT1H").replacingOccurrences(of: "UID:", with: "uid:"),
            TestEvent.ics(uid: "c", start: "20260301T090000", extra: ["DTEND;TZID=Europe/Paris:20260301T100000"])
                .replacingOccurrences(of: "DTSTART:", with: "DTSTART;TZID=Europe/Paris:"),
            TestEvent.ics(uid: "  d  ", summary: "x", duration: "PT1H"),
            TestEvent.ics(uid: nil, summary: "x", duration: "PT1H"),
        ]
        for text in cases {
            let data = Data(text.utf8)
            let full = ItemContent(data), pending = ItemContent(pendingHashOf: data)
            #expect(pending.uid == full.uid && pending.span == full.span && pending.kinds == full.kinds, "\(text)")
            #expect(pending.hash == (full.uid == nil ? full.hash : ContentHash.pending(for: data)), "\(text)")
        }
    }
}

/// Which rows a plan needs the hashes proper of (`PendingHashes`, pure): a row pending on a
/// side whose item was read again with another hash; not one whose sides were kept from it.
struct PendingHashesPlanTests {
    static func row(_ key: String, local: ContentHash, remote: ContentHash) -> JournalItem {
        JournalItem(
            key: ItemKey(key), local: SideRecord(href: ItemHref("l/\(key)"), etag: "e", hash: local),
            remote: SideRecord(href: ItemHref("r/\(key)"), etag: "e", hash: remote))
    }

    static func item(_ key: String, _ side: Side, _ hash: ContentHash) -> SideItem {
        SideItem(key: ItemKey(key), href: ItemHref("\(side == .local ? "l" : "r")/\(key)"), etag: "f", hash: hash)
    }

    @Test func theRowsNeededArePendingOnASideReadAgain() {
        let p = (1...6).map { ContentHash.pending(for: Data("item \($0)".utf8)) }
        let proper = ContentHash.of(TestEvent.data(uid: "x", summary: "x", duration: "PT1H"))
        let rows = [
            Self.row("kept", local: p[0], remote: p[0]),  // both sides kept from the row
            Self.row("touched", local: p[1], remote: p[1]),  // the file read again
            Self.row("restamped", local: p[2], remote: p[2]),  // the server's item read again
            Self.row("settled", local: proper, remote: proper),  // no pending hash left
            Self.row("half", local: proper, remote: p[3]),  // the local side read again, its hash proper
            Self.row("gone", local: p[4], remote: p[4]),  // the file deleted, the server's kept
        ]
        let local = SideSnapshot(items: [
            Self.item("kept", .local, p[0]), Self.item("touched", .local, proper),
            Self.item("restamped", .local, p[2]), Self.item("settled", .local, ContentHash("other")),
            Self.item("half", .local, ContentHash("other")),
        ])
        let remote = SideSnapshot(items: [
            Self.item("kept", .remote, p[0]), Self.item("touched", .remote, p[1]),
            Self.item("restamped", .remote, proper), Self.item("settled", .remote, proper),
            Self.item("half", .remote, p[3]), Self.item("gone", .remote, p[4]),
        ])
        #expect(
            PendingHashes.needed(local: local, remote: remote, journal: rows).map(\.value) == ["touched", "restamped"])
        #expect(PendingHashes.needed(local: local, remote: remote, journal: Array(rows[3...3])).isEmpty)

        // What is made replaces the pending hash in the rows and in the items kept from them.
        var journal = rows, l = local, r = remote
        PendingHashes.replace([p[1]: proper], in: &journal, local: &l, remote: &r)
        #expect(journal[1].local.hash == proper && journal[1].remote.hash == proper)
        #expect(r.items[1].hash == proper && l.items[1].hash == proper)
        #expect(journal[0].local.hash == p[0] && r.items[0].hash == p[0])
    }
}
