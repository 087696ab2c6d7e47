import Foundation
import GRDB
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A bulk load's merge bases compressed together (`BasePack`): each reads back as it was
/// given, a pack goes once no row refers to it, and a pack that cannot be read is a missing
/// base (a conflict, nothing lost), never an error.
@Suite struct BasePackTests {
    func item(_ key: String, _ n: Int = 1) -> JournalItem {
        JournalItem(
            key: ItemKey(key),
            local: SideRecord(href: ItemHref("\(key).ics"), etag: "l\(n)", hash: ContentHash("h\(n)")),
            remote: SideRecord(href: ItemHref("/cal/\(key).ics"), etag: "r\(n)", hash: ContentHash("h\(n)")))
    }

    /// An event of about a kilobyte, different for each `n`, as servers write them.
    func event(_ n: Int, padding: Int = 0) -> Data {
        let lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example//Calendar 1.0//EN", "BEGIN:VEVENT",
            "UID:event-\(n)@example.org", "DTSTAMP:20260101T000000Z", "DTSTART:202603\(10 + n % 19)T\(10 + n % 9)0000Z",
            "DURATION:PT\(1 + n % 3)H", "SUMMARY:Meeting number \(n) about \(["budgets", "plans", "travel"][n % 3])",
            "DESCRIPTION:" + String(repeating: "notes \(n * 7919 % 1000) ", count: 20 + n % 7),
            "LOCATION:Room \(n % 40)", "X-PADDING:" + String(repeating: "x", count: padding), "END:VEVENT",
            "END:VCALENDAR",
        ]
        return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    func packCount(_ journal: Journal) throws -> Int {
        try journal.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM basePack") ?? 0 }
    }

    /// Loads `bases` as a first pull does: one transaction, without the indexes.
    func load(_ journal: Journal, _ bases: [Data], keys: String = "k") throws {
        try journal.beginBulkLoad()
        try journal.applyAll(bases.enumerated().map { .upsert(item("\(keys)\($0.offset)"), base: $0.element) })
        try journal.endBulkLoad()
    }

    @Test func aBatchIsPackedByAHundredAndTwentyEightInFewerBytesAndEachBaseReadsBack() throws {
        let journal = try Journal.inMemory()
        let bases = (0..<300).map { event($0) }
        try load(journal, bases)
        #expect(try packCount(journal) == 3)  // 128, 128 and 44
        for (i, base) in bases.enumerated() { #expect(try journal.base(for: ItemKey("k\(i)")) == base) }
        let packed = try journal.writer.read {
            try Int.fetchOne($0, sql: "SELECT SUM(length(data)) FROM basePack") ?? 0
        }
        let alone = bases.reduce(0) { $0 + StoredBase.pack($1).count }
        #expect(packed < alone / 2, "packed \(packed) bytes, alone \(alone)")
    }

    /// A pack is an LZ4 block; one compressed with Zstandard, with the dictionary or without
    /// (as earlier packs were), reads as well.
    @Test func aPackIsAnLZ4BlockAndOnesMadeWithZstandardStillRead() throws {
        let journal = try Journal.inMemory()
        let bases = (0..<20).map { event($0) }
        try load(journal, bases)
        let stored = try journal.writer.read { try Data.fetchOne($0, sql: "SELECT data FROM basePack") }
        #expect(stored?.first == StoredBase.Form.lz4.rawValue)
        let joined = bases.reduce(Data(), +)
        #expect(stored.flatMap(StoredBase.unpack) == joined)
        #expect(stored.map { $0.count < joined.count / 4 } == true, "\(stored?.count ?? 0) of \(joined.count) bytes")

        // The same members in packs as Zstandard made them.
        let earlier = try joined.withUnsafeBytes { source in
            [
                try #require(StoredBase.compressed(source, withDictionary: false)),
                try #require(StoredBase.compressed(source, withDictionary: true)),
            ]
        }
        #expect(earlier.map(\.first) == [StoredBase.Form.zstd.rawValue, StoredBase.Form.zstdDictionary1.rawValue])
        for pack in earlier {
            try journal.writer.write { try $0.execute(sql: "UPDATE basePack SET data = ?", arguments: [pack]) }
            journal.packs.withLock { $0 = Journal.PackCache() }  // none kept from before
            for (i, base) in bases.enumerated() { #expect(try journal.base(for: ItemKey("k\(i)")) == base) }
        }
    }

    @Test func aPackHoldsAtMostAMebibyteAndAFewBasesAreStoredAlone() throws {
        let journal = try Journal.inMemory()
        // About 100 KB each: 10 to a pack of at most 1 MiB, three times; the 4 left are too few
        // for a pack.
        let bases = (0..<34).map { event($0, padding: 100_000) }
        try load(journal, bases)
        #expect(try packCount(journal) == 3)
        let alone = try journal.writer.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item WHERE basePack IS NULL") ?? 0
        }
        #expect(alone == 4)
        for (i, base) in bases.enumerated() { #expect(try journal.base(for: ItemKey("k\(i)")) == base) }

        let few = try Journal.inMemory()
        try load(few, (0..<(BasePack.fewest - 1)).map { event($0) })
        #expect(try packCount(few) == 0)
        #expect(try few.base(for: ItemKey("k3")) == event(3))
    }

    /// A mass deletion's check reads the bases of every item it would delete, in the plan's
    /// order: each pack once, each base as ``Journal/base(for:)`` reads it.
    @Test func basesAskedTogetherAreEachReadOnceWhateverTheirOrder() throws {
        let journal = try Journal.inMemory()
        try load(journal, (0..<300).map { event($0) })
        try journal.applyAll([.upsert(item("k7", 2), base: event(1007)), .upsert(item("alone"), base: event(2000))])
        var keys = (0..<300).map { ItemKey("k\($0)") } + [ItemKey("alone"), ItemKey("unknown")]
        keys.shuffle()
        var read: [ItemKey: Data] = [:]
        var calls = 0
        try journal.forEachBase(of: keys) { key, base in
            read[key] = base
            calls += 1
        }
        #expect(calls == 301 && read.count == 301)
        #expect(read[ItemKey("k7")] == event(1007) && read[ItemKey("alone")] == event(2000))
        #expect(read[ItemKey("k299")] == event(299) && read[ItemKey("k0")] == event(0))
        #expect((0..<300).allSatisfy { $0 == 7 || read[ItemKey("k\($0)")] == event($0) })
    }

    @Test func packsReadAreKeptWithinTheBudgetTheLeastRecentlyReadDroppedFirst() {
        var cache = Journal.PackCache()
        let third = Data(count: Journal.PackCache.budget / 3 + 1)
        cache.keep(third, of: 1)
        cache.keep(third, of: 2)
        #expect(cache.bases(of: 1) != nil)  // read again: 2 is now the least recently read
        cache.keep(third, of: 3)
        #expect(cache.bases(of: 2) == nil)
        #expect(cache.bases(of: 1) != nil && cache.bases(of: 3) != nil)
        cache.keep(Data(count: Journal.PackCache.budget), of: 4)
        #expect(cache.bases(of: 1) == nil && cache.bases(of: 3) == nil && cache.bases(of: 4) != nil)
    }

    @Test func aPackIsDroppedOnceNoRowRefersToIt() throws {
        let journal = try Journal.inMemory()
        try load(journal, (0..<20).map { event($0) })
        #expect(try packCount(journal) == 1)
        // New bases for all but one: the last member keeps the pack.
        try journal.applyAll((0..<19).map { .upsert(item("k\($0)", 2), base: event(100 + $0)) })
        #expect(try packCount(journal) == 1)
        #expect(try journal.base(for: ItemKey("k19")) == event(19))
        #expect(try journal.base(for: ItemKey("k3")) == event(103))
        // Without a base a row keeps its packed one.
        try journal.apply(.upsert(item("k19", 3), base: nil))
        #expect(try journal.base(for: ItemKey("k19")) == event(19))
        try journal.apply(.remove(ItemKey("k19")))
        #expect(try packCount(journal) == 0)
        #expect(try journal.base(for: ItemKey("k19")) == nil)
        #expect(try journal.base(for: ItemKey("k4")) == event(104))
    }

    /// A row a load appends without a base takes the packed base of its key's row before it, and
    /// keeps it when opening the journal drops that row (a run killed during its load).
    @Test func aRowWithoutABaseKeepsItsKeysPackedBaseThroughAnUnfinishedLoad() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("journal.sqlite")
        do {
            let journal = try Journal.open(at: url)
            try journal.beginBulkLoad()
            try journal.applyAll(
                (0..<10).map { .upsert(item("k\($0)"), base: event($0)) } + [.upsert(item("k0", 2), base: nil)])
            #expect(try journal.itemCount() == 11)
        }
        let journal = try Journal.open(at: url)
        #expect(try journal.itemCount() == 10)
        #expect(try journal.items(keys: [ItemKey("k0")]).first?.local.etag == "l2")
        #expect(try journal.base(for: ItemKey("k0")) == event(0))
        #expect(try packCount(journal) == 1)
    }

    @Test func aPackThatCannotBeReadIsAMissingBase() throws {
        let journal = try Journal.inMemory()
        try load(journal, (0..<10).map { event($0) })
        try journal.writer.write { try $0.execute(sql: "UPDATE basePack SET data = X'01DEADBEEF'") }
        #expect(try journal.base(for: ItemKey("k2")) == nil)
        try journal.writer.write { try $0.execute(sql: "UPDATE item SET base = X'0200' WHERE key = 'k3'") }
        #expect(try journal.base(for: ItemKey("k3")) == nil)
    }
}
