import Foundation
import GRDB
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// Journal v7: hashes kept as their bytes, merge bases compressed, settled batches without
/// their members. A journal written before is rewritten when opened, read as it was, and given
/// its freed pages back.
@Suite struct StoredFormMigrationTests {
    static let hexA = String(repeating: "0123456789abcdef", count: 4)
    static let hexB = String(repeating: "fedcba9876543210", count: 4)

    /// A journal as v6 left it: three items (a real event as base, an empty base, bytes that
    /// are no calendar), an item outside the window, a settled batch and a pending one.
    static func journalBeforeV7(at url: URL, base: Data) throws {
        let queue = try DatabaseQueue(path: url.path)
        try JournalSchema.migrator.migrate(queue, upTo: "v6: a batch of intents in one row")
        let pending = IntentBatch.pack([
            Intent(
                key: ItemKey("p1"), operation: .create, side: .local, href: "p1.ics", ifMatch: nil,
                newHash: ContentHash(hexA)),
            Intent(
                key: ItemKey("p2"), operation: .create, side: .local, href: "p2.ics", ifMatch: nil,
                newHash: ContentHash(hexB)),
        ])
        try queue.write { db in
            let rows: [(String, String, String, Data)] = [
                ("a", hexA, "raw:" + hexB, base), ("b", hexB, hexB, Data()),
                ("c", "made-up", hexA, Data([0, 1, 2, 0xFF])),
            ]
            for (key, localHash, remoteHash, base) in rows {
                try db.execute(
                    sql: """
                        INSERT INTO item (key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, base, syncedAt)
                        VALUES (?, ?, 'e', ?, ?, '"r"', ?, ?, '2026-01-01T00:00:00Z')
                        """,
                    arguments: [key, "\(key).ics", localHash, "/cal/\(key).ics", remoteHash, base])
            }
            try db.execute(
                sql:
                    "INSERT INTO outsideItem (side, href, etag, key, hash) VALUES ('remote', '/cal/o.ics', 'e', 'o', ?)",
                arguments: [hexA])
            for (state, members) in [("done", pending), ("pending", pending)] {
                try db.execute(
                    sql: """
                        INSERT INTO intent (key, operation, side, href, newHash, state, createdAt, members)
                        VALUES ('p1', 'create', 'local', 'p1.ics', ?, ?, '2026-01-01T00:00:00Z', ?)
                        """,
                    arguments: [hexA, state, members])
            }
        }
        try queue.close()
    }

    @Test func aJournalWrittenBeforeIsReadAsItWasAndKeptSmaller() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("journal.sqlite")
        let base = try #require(
            CorpusFiles.icsFiles().lazy.compactMap { try? Data(contentsOf: $0) }.first { $0.count > 1_000 },
            "a corpus file of more than a kilobyte")
        try Self.journalBeforeV7(at: url, base: base)

        let journal = try Journal.open(at: url)
        let items = Dictionary(uniqueKeysWithValues: try journal.items().map { ($0.key.value, $0) })
        #expect(
            items["a"]?.local.hash == ContentHash(Self.hexA)
                && items["a"]?.remote.hash == ContentHash("raw:" + Self.hexB))
        #expect(items["b"]?.local.hash == ContentHash(Self.hexB))
        #expect(items["c"]?.local.hash == ContentHash("made-up") && items["c"]?.remote.hash == ContentHash(Self.hexA))
        #expect(try journal.base(for: ItemKey("a")) == base)
        #expect(try journal.base(for: ItemKey("b")) == Data())
        #expect(try journal.base(for: ItemKey("c")) == Data([0, 1, 2, 0xFF]))
        #expect(try journal.outsideItems(.remote).map(\.hash) == [ContentHash(Self.hexA)])
        // The pending batch is still whole; the settled one lost its members.
        #expect(try journal.pendingIntents().map(\.key) == [ItemKey("p1"), ItemKey("p2")])

        try journal.writer.read { db in
            let stored = try Row.fetchAll(
                db,
                sql:
                    "SELECT key, typeof(localHash), length(localHash), length(remoteHash), length(base) FROM item ORDER BY key"
            )
            #expect(stored[0][1] == "blob" && stored[0][2] == 32 && stored[0][3] == 33)
            #expect(
                (stored[0][4] as Int) < base.count / 2,
                "a base of \(base.count) bytes is kept in \(stored[0][4] as Int)")
            #expect(stored[1][4] == 0)
            #expect(stored[2][1] == "text", "a hash that is no SHA-256 stays text")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(hash) FROM outsideItem") == "blob")
            let members = try Row.fetchAll(db, sql: "SELECT state, members IS NULL FROM intent ORDER BY id")
            #expect(
                members.map { $0[0] as String } == ["done", "pending"]
                    && members.map { $0[1] as Bool } == [true, false])
            #expect(try Int.fetchOne(db, sql: "PRAGMA freelist_count") == 0, "the freed pages were given back")
        }
    }

    @Test func newRowsAreWrittenInTheStoredForms() throws {
        let journal = try Journal.inMemory()
        let hash = ContentHash(Self.hexA)
        let item = JournalItem(
            key: ItemKey("k"), local: SideRecord(href: "k.ics", etag: "1", hash: hash),
            remote: SideRecord(href: "/cal/k.ics", etag: "\"2\"", hash: ContentHash("raw:" + Self.hexB)))
        let base = Data(TestEvent.ics(uid: "k", summary: "A base").utf8)
        try journal.apply(.upsert(item, base: base))
        #expect(try journal.base(for: ItemKey("k")) == base)
        #expect(try journal.items().first?.remote.hash == ContentHash("raw:" + Self.hexB))
        // An update without a base keeps the stored one as it is.
        try journal.apply(.upsert(item, base: nil))
        #expect(try journal.base(for: ItemKey("k")) == base)
        let lengths = try journal.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT length(localHash), length(base) FROM item")
        }
        #expect(lengths?[0] == 32)
        #expect((lengths?[1] as Int?) ?? .max < base.count)
    }
}

/// A merge base packed and read back.
@Suite struct StoredBaseTests {
    @Test func everyCorpusFileComesBackByteForByteAndSmaller() throws {
        let files = CorpusFiles.icsFiles()
        try #require(files.count > 50, "the corpora under ../shared/corpora")
        var before = 0, after = 0
        for url in files {
            let data = try Data(contentsOf: url)
            let packed = StoredBase.pack(data)
            #expect(StoredBase.unpack(packed) == data, "\(CorpusFiles.name(of: url))")
            before += data.count
            after += packed.count
        }
        #expect(after * 3 < before, "\(before) bytes packed into \(after)")
    }

    @Test func bytesThatDoNotCompressAreKeptAsTheyAre() {
        var random = SeededRandom(seed: 7)
        let noise = Data((0..<300).map { _ in UInt8.random(in: 0...255, using: &random) })
        let packed = StoredBase.pack(noise)
        #expect(packed.first == 0 && packed.count == noise.count + 1)
        #expect(StoredBase.unpack(packed) == noise)
        #expect(StoredBase.pack(Data()) == Data() && StoredBase.unpack(Data()) == Data())
    }

    @Test func whatPackDidNotWriteReadsAsNoBase() {
        let packed = StoredBase.pack(Data(TestEvent.ics(uid: "x", summary: "Cut short").utf8))
        #expect(packed.first == 1)
        #expect(StoredBase.unpack(packed.prefix(packed.count - 3)) == nil)
        #expect(StoredBase.unpack(Data("BEGIN:VCALENDAR".utf8)) == nil)
        #expect(StoredBase.unpack(Data([9, 1, 2])) == nil)
    }

    /// A pack that compresses as far as LZ4 can (a mebibyte of one byte, as a padded
    /// attachment might be) reads back whole: the bound on what a block may say it holds is
    /// not below what LZ4 writes.
    @Test func aPackOfOneByteRepeatedReadsBack() {
        let same = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        let packed = StoredBase.packTogether(same)
        #expect(packed.first == StoredBase.Form.lz4.rawValue && packed.count < same.count / 200)
        #expect(StoredBase.unpack(packed) == same)
    }

    /// A pack's LZ4 block cut short, damaged, or saying a length it does not hold reads as no
    /// base, never as other bytes or a crash.
    @Test func aDamagedLZ4PackReadsAsNoBase() throws {
        let bases = (0..<16).map { TestEvent.ics(uid: "u\($0)", summary: "Pack member \($0)") }.joined()
        let packed = StoredBase.packTogether(Data(bases.utf8))
        try #require(packed.first == StoredBase.Form.lz4.rawValue)
        #expect(StoredBase.unpack(packed) == Data(bases.utf8))
        for cut in [1, 3, 5, packed.count / 2, packed.count - 1] {
            #expect(StoredBase.unpack(packed.prefix(cut)) == nil, "cut at \(cut)")
        }
        var longer = packed
        longer[1] &+= 1  // the length's low byte: one more than the block holds
        #expect(StoredBase.unpack(longer) == nil)
        var random = SeededRandom(seed: 11)
        for _ in 0..<200 {
            var damaged = packed
            damaged[Int.random(in: 5..<damaged.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            if let read = StoredBase.unpack(damaged) { #expect(read.count == bases.utf8.count) }
        }
        #expect(StoredBase.unpack(Data([4, 0xFF, 0xFF, 0xFF, 0xFF, 0])) == nil)
        // 100 MB said by a block of one byte: refused without a buffer of that size.
        #expect(StoredBase.unpack(Data([4, 0x00, 0xE1, 0xF5, 0x05, 0])) == nil)
    }
}
