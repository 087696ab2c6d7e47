import CalgwTestSupport
import Failures
import Foundation
import GRDB
import Testing
@testable import CalendarSync

/// SQLite's refusals of the journal's row statements reach a person as a `JournalError` that
/// says what failed and what to do, with SQLite's own error kept underneath.
@Suite struct RowStatementTests {
    /// A run SQLite refuses (a unique value taken) is a `.storage` error with a recovery, and
    /// still tells a unique constraint apart (the journal's upsert relies on it).
    @Test func aRefusedRowIsAJournalErrorWithARecovery() throws {
        let queue = try DatabaseQueue()
        let error: JournalError? = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT NOT NULL UNIQUE)")
            var insert = try RowStatement(db, sql: "INSERT INTO t (a) VALUES (?)")
            insert.bind("x")
            try insert.run()
            insert.bind("x")
            do { try insert.run() } catch let error as JournalError { return error }
            return nil
        }
        let refused = try #require(error)
        #expect(refused.code == .storage)
        #expect(refused.isUniqueConstraint)
        #expect(refused.message.hasPrefix("the journal could not record its rows: "), "\(refused.message)")
        #expect(refused.recovery?.contains("run again") == true)
        #expect(refused.cause is DatabaseError)
    }

    /// A value SQLite cannot bind (a parameter the statement does not have) is a `.storage`
    /// error too, said when the statement runs.
    @Test func aValueThatCannotBeBoundIsAJournalError() throws {
        let queue = try DatabaseQueue()
        let error: JournalError? = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            var insert = try RowStatement(db, sql: "INSERT INTO t (a) VALUES (?)")
            insert.bind("x")
            insert.bind("one too many")
            do { try insert.run() } catch let error as JournalError { return error }
            return nil
        }
        let refused = try #require(error)
        #expect(refused.code == .storage)
        #expect(!refused.isUniqueConstraint)
        #expect(refused.message.contains("a value could not be bound"), "\(refused.message)")
        #expect(refused.recovery != nil)
    }

    /// Texts and blobs bound from the statement's own buffer are stored as they were given,
    /// row after row, whatever their lengths: empty, small, and larger than the buffer (bound
    /// as SQLite's copy), next to NULLs.
    @Test func boundTextsAndBlobsAreStoredAsGiven() throws {
        let queue = try DatabaseQueue()
        var random = SeededRandom(seed: 7)
        var rows: [(String?, Data?, String?)] = []
        for n in 0..<300 {
            let length = [0, 1, 40, 700, BoundBytes.capacity / 3, BoundBytes.capacity + 5][n % 6]
            let text = String((0..<length).map { _ in "aé€x".randomElement(using: &random)! })
            let blob = Data((0..<(length / 2)).map { _ in UInt8.random(in: 0...255, using: &random) })
            rows.append((n % 7 == 3 ? nil : text, n % 5 == 2 ? nil : blob, "row \(n)"))
        }
        let stored: [Row] = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, a TEXT, b BLOB, c TEXT)")
            var insert = try RowStatement(db, sql: "INSERT INTO t (a, b, c) VALUES (?, ?, ?)")
            for row in rows {
                insert.bind(row.0)
                insert.bind(row.1)
                insert.bind(row.2)
                try insert.run()
            }
            return try Row.fetchAll(db, sql: "SELECT a, b, c FROM t ORDER BY n")
        }
        #expect(stored.count == rows.count)
        for (row, expected) in zip(stored, rows) {
            #expect(row["a"] as String? == expected.0)
            #expect(row["b"] as Data? == expected.1)
            #expect(row["c"] as String? == expected.2)
        }
    }

    /// The result codes a person can act on get their own advice.
    @Test func aFullDiskAndAReadOnlyJournalSayWhatToDo() {
        #expect(JournalError.recovery(for: .SQLITE_FULL).contains("free space"))
        #expect(JournalError.recovery(for: .SQLITE_READONLY).contains("permissions"))
        #expect(JournalError.recovery(for: .SQLITE_BUSY).contains("another program"))
    }

    /// Every read and write of the journal, not only its row statements: SQLite's refusal of a
    /// read is a `.storage` JournalError too, with SQLite's error underneath.
    @Test func aReadSQLiteRefusesIsAJournalError() throws {
        let journal = try Journal.inMemory()
        try journal.writer.write { db in try db.execute(sql: "DROP TABLE item") }
        let error = #expect(throws: JournalError.self) { _ = try journal.itemCount() }
        #expect(error?.code == .storage)
        #expect(error?.message.hasPrefix("the journal could not be read: ") == true, "\(error?.message ?? "")")
        #expect(error?.cause is DatabaseError)
        let write = #expect(throws: JournalError.self) { try journal.apply(.remove(.uid("gone"))) }
        #expect(write?.message.hasPrefix("the journal could not record its rows: ") == true)
    }
}
