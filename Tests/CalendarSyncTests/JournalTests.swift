import Foundation
import GRDB
import Testing
import CalgwTestSupport
@testable import CalendarSync

@Suite struct JournalTests {
    func item(_ key: String, _ n: Int = 1) -> JournalItem {
        JournalItem(
            key: ItemKey(key), local: SideRecord(href: "\(key).ics", etag: "l\(n)", hash: ContentHash("h\(n)")),
            remote: SideRecord(href: "/cal/\(key).ics", etag: "r\(n)", hash: ContentHash("h\(n)")))
    }

    /// Opening a journal writes nothing: no schema change, no transaction (a run with nothing
    /// to do then costs no flush of the disk for it).
    @Test func openingAJournalWritesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("pair.sqlite")
        func schemaVersion(_ journal: Journal) throws -> Int? {
            try journal.writer.read { try Int.fetchOne($0, sql: "PRAGMA schema_version") }
        }
        let before: Int?
        do {
            let first = try Journal.open(at: url)
            try first.apply(.upsert(item("a"), base: Data("base".utf8)))
            before = try schemaVersion(first)
        }
        // The last connection's close moved the log into the database.
        let log = url.path + "-wal"
        func logSize() -> Int { ((try? FileManager.default.attributesOfItem(atPath: log)[.size]) as? Int) ?? 0 }
        #expect(logSize() == 0)
        let second = try Journal.open(at: url)
        #expect(try second.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try schemaVersion(second) == before)
        #expect(logSize() == 0)
        #expect(try second.items().map(\.key) == [ItemKey("a")])
    }

    @Test func fileIsPrivateAndInWALMode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("state/pair.sqlite")
        let journal = try Journal.open(at: url)
        try journal.apply(.upsert(item("a"), base: Data("base".utf8)))
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let walMode = try journal.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(walMode == "wal")
        // Reopening keeps what was written.
        #expect(try Journal.open(at: url).items().map(\.key) == [ItemKey("a")])
    }

    @Test func upsertKeepsTheBaseWhenNoneIsGiven() throws {
        let journal = try Journal.inMemory()
        try journal.apply(.upsert(item("a"), base: Data("v1".utf8)))
        try journal.apply(.upsert(item("a", 2), base: nil))
        #expect(try journal.base(for: ItemKey("a")) == Data("v1".utf8))
        #expect(try journal.items().first?.local.etag == "l2")
        try journal.apply(.upsert(item("a", 3), base: Data("v3".utf8)))
        #expect(try journal.base(for: ItemKey("a")) == Data("v3".utf8))
        try journal.apply(.remove(ItemKey("a")))
        #expect(try journal.items().isEmpty)
    }

    @Test func anHrefBelongsToOneItem() throws {
        let journal = try Journal.inMemory()
        try journal.apply(.upsert(item("a"), base: Data()))
        var other = item("b")
        other.local.href = "a.ics"
        try journal.apply(.upsert(other, base: Data()))
        #expect(try journal.items().map(\.key) == [ItemKey("b")])
        // An existing row that takes another's remote href, inside a batch that goes on after it.
        try journal.apply(.upsert(item("c"), base: Data()))
        var moved = item("b", 2)
        moved.remote.href = "/cal/c.ics"
        try journal.applyAll([.upsert(moved, base: nil), .upsert(item("d"), base: Data())])
        #expect(try journal.items().map(\.key) == [ItemKey("b"), ItemKey("d")])
        #expect(try journal.items(keys: [ItemKey("b")]).first?.remote.href == "/cal/c.ics")
    }

    @Test func emptyAndMissingValuesKeepTheirDifference() throws {
        let journal = try Journal.inMemory()
        var row = item("a")
        row.local.etag = ""
        row.lastModified = nil
        try journal.apply(.upsert(row, base: Data()))
        let stored = try journal.items().first
        #expect(stored?.local.etag == "")
        #expect(stored?.lastModified == nil)
        #expect(try journal.base(for: ItemKey("a")) == Data())
        let intent = try journal.recordAll([
            Intent(key: ItemKey("a"), operation: .update, side: .local, href: "", ifMatch: nil, newHash: nil)
        ])
        let pending = try journal.pendingIntents()
        #expect(pending.map(\.id) == intent.map(\.id))
        #expect(pending.first?.href == "")
        #expect(pending.first?.ifMatch == nil)
    }

    @Test func aBatchOfIntentsIsOneRowSettledOnceEachHasAnOutcome() throws {
        let journal = try Journal.inMemory()
        let earlier = try journal.record(
            Intent(
                key: ItemKey("z"), operation: .create, side: .local, href: "z", ifMatch: nil, newHash: ContentHash("h"))
        )
        let intents = try journal.recordAll(
            (0..<6).map {
                Intent(
                    key: ItemKey("k\($0)"), operation: .create, side: .local, href: "k\($0)", ifMatch: nil,
                    newHash: ContentHash("h"))
            })
        #expect(Set(intents.map(\.id)).count == 1 && intents[0].id != earlier.id)
        func rows() throws -> [String] {
            try journal.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT key, state, outcome FROM intent ORDER BY id").map { row -> String in
                    "\(row["key"] as String) \(row["state"] as String) \(row["outcome"] as String? ?? "-")"
                }
            }
        }
        #expect(try rows() == ["z pending -", "k0 pending -"])
        #expect(try journal.pendingIntents().map(\.key.value) == ["z", "k0", "k1", "k2", "k3", "k4", "k5"])

        // Outcomes out of order, one failure, one intent still in flight: the row stays pending,
        // so recovery would look at each of its intents; the item rows are written all the same.
        let outcomes: [IntentOutcome] = [.done, .done, .failed("disk full"), .done, .done, .done]
        try journal.completeAll(
            [4, 0, 1, 2, 3].map { i in
                (intents[i], outcomes[i], i == 2 ? .none : .upsert(item("k\(i)"), base: Data()))
            })
        #expect(try rows() == ["z pending -", "k0 pending -"])
        #expect(try journal.items().map(\.key.value).sorted() == ["k0", "k1", "k3", "k4"])

        try journal.completeAll((0..<6).map { i in (intents[i], outcomes[i], .none) })
        #expect(try rows() == ["z pending -", "k0 done done but 1 of 6 failed, the first: disk full"])
        #expect(try journal.pendingIntents().map(\.id) == [earlier.id])
        let allFailed = try journal.recordAll(
            ["a", "b"].map {
                Intent(key: ItemKey($0), operation: .delete, side: .remote, href: "/\($0)", ifMatch: "1", newHash: nil)
            })
        try journal.completeAll(allFailed.map { ($0, .failed("gone"), .none) })
        try journal.complete(earlier, change: .none)
        #expect(
            try rows() == [
                "z done done", "k0 done done but 1 of 6 failed, the first: disk full", "a failed failed: gone",
            ])
    }

    @Test func aBatchRowKeepsEveryFieldOfItsIntents() throws {
        let journal = try Journal.inMemory()
        let recorded = [
            Intent(
                key: ItemKey("tab\tnew\nline ünïcödé"), operation: .create, side: .local, href: "a b.ics", ifMatch: nil,
                newHash: ContentHash(String(repeating: "ab", count: 32))),
            Intent(
                key: ItemKey("u"), operation: .update, side: .remote, href: "/c/u.ics", ifMatch: "\"e1\"",
                newHash: ContentHash("raw:" + String(repeating: "0", count: 64))),
            Intent(key: ItemKey("d"), operation: .delete, side: .local, href: "", ifMatch: "", newHash: nil),
            Intent(
                key: ItemKey(""), operation: .update, side: .remote, href: nil, ifMatch: nil,
                newHash: ContentHash("made-up")),
            Intent(
                key: ItemKey("s"), operation: .create, side: .remote, href: "s", ifMatch: nil,
                newHash: ContentHash("h1"),
                source: SideRecord(href: "s ü.ics", etag: "", hash: ContentHash("h1"))),
            Intent(
                key: ItemKey("t"), operation: .update, side: .local, href: "t.ics", ifMatch: "7-8",
                newHash: ContentHash("h2"),
                source: SideRecord(href: "/c/t.ics", etag: "\"e\"", hash: ContentHash("h3"))),
        ]
        let ids = try journal.recordAll(recorded).map(\.id)
        let pending = try journal.pendingIntents()
        #expect(
            pending
                == recorded.map {
                    var copy = $0; copy.id = ids[0]; return copy
                })
        // A single intent with a source keeps it too (stored as a batch of one).
        let single = try journal.record(recorded[4])
        #expect(try journal.pendingIntents().last == single && single.source != nil)
    }

    /// A write whose answer never came may have landed: its row stays pending for recovery,
    /// with what happened in its outcome; a batch with one such write stays pending whole.
    @Test func aWriteOfUnknownFateStaysPending() throws {
        let journal = try Journal.inMemory()
        let intents = try journal.recordAll(
            ["a", "b"].map {
                Intent(
                    key: ItemKey($0), operation: .create, side: .remote, href: ItemHref($0), ifMatch: nil,
                    newHash: ContentHash("h"))
            })
        try journal.completeAll([(intents[0], .done, .none), (intents[1], .unknown("the connection broke"), .none)])
        #expect(try journal.pendingIntents().map(\.key) == [ItemKey("a"), ItemKey("b")])
        let single = try journal.record(
            Intent(key: ItemKey("c"), operation: .delete, side: .remote, href: "c", ifMatch: "e", newHash: nil))
        try journal.completeAll([(single, .failed("refused"), .none)])
        #expect(try journal.pendingIntents().count == 2, "a refused write is settled")
    }

    @Test func aBatchRowThatCannotBeReadIsAnErrorNotAnEmptyLog() throws {
        let journal = try Journal.inMemory()
        let intents = try journal.recordAll(
            ["a", "b"].map {
                Intent(
                    key: ItemKey($0), operation: .create, side: .local, href: "\($0).ics", ifMatch: nil,
                    newHash: ContentHash("h"))
            })
        try journal.writer.write { db in
            try db.execute(
                sql: "UPDATE intent SET members = substr(members, 1, length(members) - 3) WHERE id = ?",
                arguments: [intents[0].id])
        }
        #expect(throws: JournalError.self) { try journal.pendingIntents() }
    }

    @Test func intentsArePendingUntilCompleted() throws {
        let journal = try Journal.inMemory()
        let intent = try journal.record(
            Intent(
                key: ItemKey("a"), operation: .update, side: .remote, href: "/a", ifMatch: "1",
                newHash: ContentHash("h")))
        #expect(try journal.pendingIntents().map(\.id) == [intent.id])
        try journal.complete(intent, change: .upsert(item("a"), base: Data("x".utf8)))
        #expect(try journal.pendingIntents().isEmpty)
        #expect(try journal.items().count == 1)
        let second = try journal.record(
            Intent(key: ItemKey("b"), operation: .delete, side: .local, href: "b.ics", ifMatch: "2", newHash: nil))
        try journal.markRecovered(second, outcome: "landed")
        #expect(try journal.pendingIntents().isEmpty)
    }

    @Test func collectionStateAndLastSync() throws {
        let journal = try Journal.inMemory()
        #expect(try journal.collection(.remote) == CollectionState())
        try journal.setCollection(
            .remote, CollectionState(token: ChangeToken("t1"), displayName: "Work", color: "#ff0000"))
        #expect(try journal.collection(.remote).token == ChangeToken("t1"))
        #expect(try journal.collection(.local).token == nil)
        #expect(try journal.lastSync() == nil)
        try journal.setLastSync()
        #expect(try journal.lastSync() != nil)
    }

    @Test func aSecondLockWaitsThenFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("p.sqlite")
        do {
            let first = try PairLock(journal: url, timeout: 1)
            #expect(throws: JournalError.self) { _ = try PairLock(journal: url, timeout: 0.3) }
            withExtendedLifetime(first) {}
        }
        let again = try PairLock(journal: url, timeout: 0.3)
        withExtendedLifetime(again) {}
    }
}

@Suite struct JournalLookupTests {
    @Test func itemsByKey() throws {
        let journal = try Journal.inMemory()
        for k in ["a", "b", "c"] {
            try journal.apply(
                .upsert(
                    JournalItem(
                        key: ItemKey(k), local: SideRecord(href: "\(k).ics", etag: "1", hash: ContentHash("h")),
                        remote: SideRecord(href: "/\(k)", etag: "1", hash: ContentHash("h"))), base: Data()))
        }
        #expect(
            try journal.items(keys: [ItemKey("a"), ItemKey("c"), ItemKey("z")]).map(\.key).sorted() == [
                ItemKey("a"), ItemKey("c"),
            ])
        #expect(try journal.items(keys: []).isEmpty)
    }

    @Test func aJournalFromANewerVersionIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("j.sqlite")
        do {
            let journal = try Journal.open(at: url)
            try journal.writer.write {
                try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
            }
        }
        #expect { _ = try Journal.open(at: url) } throws: { ($0 as? JournalError)?.code == .newerVersion }
    }
}

@Suite struct RecoverySummaryTests {
    @Test func aRowOfIntentsIsSummedUpByOutcome() {
        #expect(SyncEngine.summary(of: ["landed"]) == "landed")
        #expect(
            SyncEngine.summary(of: [
                "landed", "not landed", "landed", "torn by the interruption; removed", "not landed", "landed",
            ])
                == "6 intents: 3 landed, 2 not landed, 1 torn by the interruption; removed")
    }
}
