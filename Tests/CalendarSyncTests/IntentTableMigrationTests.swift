import Foundation
import GRDB
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// The v4 intent table: a journal written before it keeps every intent (a killed run's
/// pending ones are still found and finished), new intents follow the old ids, and writing an
/// intent no longer builds a temporary index or touches a sequence or an index of its own.
@Suite struct IntentTableMigrationTests {
    /// A journal as v3 left it, holding three finished intents and two pending ones.
    static func journalBeforeV4(at url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        try JournalSchema.migrator.migrate(queue, upTo: "v3: vdir etags in their short form")
        try queue.write { db in
            for (i, state) in ["done", "failed", "recovered", "pending", "pending"].enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO intent (key, operation, side, href, ifMatch, newHash, state, outcome, createdAt)
                        VALUES (?, 'update', 'remote', ?, ?, ?, ?, ?, '2026-01-01T00:00:00Z')
                        """,
                    arguments: ["k\(i)", "/c/k\(i).ics", "\"e\(i)\"", "h\(i)", state, state == "pending" ? nil : state])
            }
            // Pruned rows leave the sequence ahead of the table's highest id.
            try db.execute(sql: "DELETE FROM intent WHERE id = 1")
        }
        try queue.close()
    }

    @Test func aJournalWrittenBeforeKeepsItsIntents() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("journal.sqlite")
        try Self.journalBeforeV4(at: url)

        let journal = try Journal.open(at: url)
        let pending = try journal.pendingIntents()
        #expect(pending.map(\.id) == [4, 5])
        #expect(pending.map(\.key) == [ItemKey("k3"), ItemKey("k4")])
        #expect(pending.map(\.href) == ["/c/k3.ics", "/c/k4.ics"] && pending.map(\.ifMatch) == ["\"e3\"", "\"e4\""])
        #expect(pending.map(\.newHash) == [ContentHash("h3"), ContentHash("h4")])
        #expect(pending.allSatisfy { $0.operation == .update && $0.side == .remote })
        let states = try journal.writer.read { try String.fetchAll($0, sql: "SELECT state FROM intent ORDER BY id") }
        #expect(states == ["failed", "recovered", "pending", "pending"])

        // New intents come after the old ones, in the order they were recorded.
        let added = try journal.recordAll([
            Intent(
                key: ItemKey("n1"), operation: .create, side: .local, href: "n1.ics", ifMatch: nil,
                newHash: ContentHash("x")),
            Intent(
                key: ItemKey("n2"), operation: .create, side: .local, href: "n2.ics", ifMatch: nil,
                newHash: ContentHash("y")),
        ])
        #expect(added.map(\.id) == [6, 6])
        try journal.completeAll(added.map { ($0, .done, .none) })
        try journal.markRecovered(pending[0], outcome: "landed")
        try journal.markRecovered(pending[1], outcome: "did not land")
        #expect(try journal.pendingIntents().isEmpty)
    }

    @Test func anIntentRowCostsOneRowAndItsCheckStillRefusesWhatIsNotAState() throws {
        let journal = try Journal.inMemory()
        try journal.writer.read { db in
            #expect(
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'intent' AND type = 'index'"
                ).isEmpty)
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'intent'") ?? ""
            #expect(!sql.contains("AUTOINCREMENT"))
            // What SQLite runs to insert a row: no temporary index, no sequence row.
            let program: [String] = try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN INSERT INTO intent (key, operation, side, href, ifMatch, newHash, state, createdAt)
                    VALUES ('k', 'create', 'local', 'k.ics', NULL, 'h', 'pending', 'now')
                    """
            ).map { $0["opcode"] }
            #expect(!program.contains("OpenEphemeral"), "\(program)")
            #expect(program.filter { $0 == "OpenWrite" }.count == 1, "\(program)")
        }
        #expect(throws: DatabaseError.self) {
            try journal.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO intent (key, operation, side, state, createdAt) VALUES ('k', 'create', 'local', 'sort of done', 'now')"
                )
            }
        }
    }
}
