import Foundation
import GRDB
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// The v5 item table and bulk loads: the unique constraints are named indexes a first pull
/// drops while it fills an empty journal and builds at its end; a journal left between the two
/// (a killed run) gets them back when opened, keeping what upserts would have kept.
@Suite struct BulkLoadTests {
    func item(_ key: String, _ n: Int = 1, local: String? = nil, remote: String? = nil) -> JournalItem {
        JournalItem(
            key: ItemKey(key),
            local: SideRecord(href: ItemHref(local ?? "\(key).ics"), etag: "l\(n)", hash: ContentHash("h\(n)")),
            remote: SideRecord(href: ItemHref(remote ?? "/cal/\(key).ics"), etag: "r\(n)", hash: ContentHash("h\(n)")))
    }

    /// The item table's unique indexes (`itemBasePack` is not one, and is never dropped).
    func indexes(_ journal: Journal) throws -> Set<String> {
        try journal.writer.read {
            Set(
                try String.fetchAll(
                    $0,
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'item' AND sql LIKE 'CREATE UNIQUE INDEX%'"
                ))
        }
    }

    static let allIndexes: Set<String> = ["itemKey", "itemLocalHref", "itemRemoteHref"]

    /// A journal as v4 left it, holding two items.
    static func journalBeforeV5(at url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        try JournalSchema.migrator.migrate(queue, upTo: "v4: intents without a list check, a sequence or an index")
        try queue.write { db in
            for key in ["a", "b"] {
                try db.execute(
                    sql: """
                        INSERT INTO item (key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, sequence, spanStart, spanEnd, base, syncedAt)
                        VALUES (?, ?, 'le', 'lh', ?, 're', 'rh', 3, 10, 20, ?, '2026-01-01T00:00:00Z')
                        """, arguments: [key, "\(key).ics", "/cal/\(key).ics", Data("base \(key)".utf8)])
            }
        }
        try queue.close()
    }

    @Test func aJournalWrittenBeforeKeepsItsItemsUnderTheSameConstraints() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("journal.sqlite")
        try Self.journalBeforeV5(at: url)

        let journal = try Journal.open(at: url)
        #expect(try indexes(journal) == Self.allIndexes)
        let items = try journal.items().sorted { $0.key.value < $1.key.value }
        #expect(items.map(\.key) == [ItemKey("a"), ItemKey("b")])
        #expect(
            items.map(\.remote.href) == ["/cal/a.ics", "/cal/b.ics"]
                && items.allSatisfy { $0.sequence == 3 && $0.span == TimeSpan(start: 10, end: 20) })
        #expect(try journal.base(for: ItemKey("b")) == Data("base b".utf8))
        // Each constraint still holds: a second row of a key or of an href is refused by SQLite.
        for (key, local, remote) in [
            ("a", "x.ics", "/cal/x.ics"), ("x", "a.ics", "/cal/x.ics"), ("x", "x.ics", "/cal/a.ics"),
        ] {
            #expect(throws: DatabaseError.self) {
                try journal.writer.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO item (key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, base, syncedAt)
                            VALUES (?, ?, '', '', ?, '', '', X'', '')
                            """, arguments: [key, local, remote])
                }
            }
        }
        // An upsert still replaces its key's row and drops another key's row holding its href.
        try journal.apply(.upsert(item("a", 2, remote: "/cal/b.ics"), base: nil))
        #expect(try journal.items().map(\.key) == [ItemKey("a")])
        #expect(try journal.base(for: ItemKey("a")) == Data("base a".utf8))
    }

    @Test func aBulkLoadAppendsWithoutIndexesAndIndexesAtItsEnd() throws {
        let journal = try Journal.inMemory()
        try journal.beginBulkLoad()
        #expect(try indexes(journal).isEmpty)
        try journal.applyAll((0..<300).map { .upsert(item("k\($0)"), base: Data("b\($0)".utf8)) })
        let intents = try journal.recordAll([
            Intent(
                key: ItemKey("z"), operation: .create, side: .local, href: "z.ics", ifMatch: nil,
                newHash: ContentHash("h"))
        ])
        try journal.completeAll([(intents[0], .done, .upsert(item("z"), base: Data("bz".utf8)))])
        #expect(try journal.itemCount() == 301)
        try journal.endBulkLoad()

        #expect(try indexes(journal) == Self.allIndexes)
        #expect(try journal.items(keys: [ItemKey("k7"), ItemKey("z")]).count == 2)
        #expect(try journal.base(for: ItemKey("k299")) == Data("b299".utf8))
        let plan = try journal.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM item WHERE key = 'k7'").map {
                $0["detail"] as String
            }
        }
        #expect(plan.contains { $0.contains("itemKey") }, "\(plan)")
        // Upserts again: a second row for a key replaces the first.
        try journal.apply(.upsert(item("k7", 2), base: nil))
        #expect(try journal.itemCount() == 301)
        #expect(try journal.items(keys: [ItemKey("k7")]).first?.local.etag == "l2")
    }

    @Test func aJournalThatHoldsItemsIsNotBulkLoaded() throws {
        let journal = try Journal.inMemory()
        try journal.apply(.upsert(item("a"), base: Data("1".utf8)))
        try journal.beginBulkLoad()
        #expect(try indexes(journal) == Self.allIndexes)
        try journal.apply(.upsert(item("a", 2), base: Data("2".utf8)))
        #expect(try journal.itemCount() == 1)
        try journal.endBulkLoad()
        #expect(try journal.base(for: ItemKey("a")) == Data("2".utf8))
    }

    /// A run killed during its load leaves the indexes missing, and maybe rows an upsert would
    /// have replaced: the next open keeps the last row of each key and href, and a row written
    /// without a base keeps the base of the key's row before it.
    @Test func aLoadLeftUnfinishedIsIndexedWhenTheJournalIsOpened() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("journal.sqlite")
        do {
            let journal = try Journal.open(at: url)
            try journal.beginBulkLoad()
            try journal.applyAll([
                .upsert(item("a"), base: Data("a1".utf8)),
                .upsert(item("b"), base: Data("b1".utf8)),
                .upsert(item("c"), base: Data("c1".utf8)),
                .upsert(item("a", 2), base: nil),
                .upsert(item("d", 1, remote: "/cal/c.ics"), base: Data("d1".utf8)),
            ])
            #expect(try journal.itemCount() == 5)
        }
        let journal = try Journal.open(at: url)
        #expect(try indexes(journal) == Self.allIndexes)
        let items = try journal.items().sorted { $0.key.value < $1.key.value }
        #expect(items.map(\.key.value) == ["a", "b", "d"])
        #expect(items[0].local.etag == "l2")
        #expect(try journal.base(for: ItemKey("a")) == Data("a1".utf8))
        #expect(try journal.base(for: ItemKey("d")) == Data("d1".utf8))
    }
}
