import Foundation
import GRDB
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A new journal is made in one step (`JournalSchema.createLatest`), not by running the
/// migrations one after the other: both must leave the same schema, and a journal made either
/// way must be one the migrator counts as up to date.
@Suite struct JournalSchemaTests {
    /// Each table's and index's definition, keyed by kind and name, in a form that leaves out
    /// what does not change what it defines: runs of white space, the quotes a rename adds, the
    /// spaces beside brackets and commas.
    static func schema(of db: Database) throws -> [String: String] {
        let rows = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master")
        var schema: [String: String] = [:]
        for row in rows {
            let sql: String? = row["sql"]
            let words = (sql ?? "(made by SQLite)").replacingOccurrences(of: "\"", with: "")
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            var tight = words
            for mark in ["(", ")", ","] {
                tight = tight.replacingOccurrences(of: " " + mark, with: mark)
                    .replacingOccurrences(of: mark + " ", with: mark)
            }
            schema["\(row["type"] as String) \(row["name"] as String)"] = tight
        }
        return schema
    }

    /// Each table's columns as SQLite reads them: name, type, not null, default, key.
    static func columns(of db: Database) throws -> [String: [String]] {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        var columns: [String: [String]] = [:]
        for table in tables {
            columns[table] = try Row.fetchAll(db, sql: "PRAGMA table_xinfo(\(table))").map { row in
                "\(row["name"] as String) \(row["type"] as String) \(row["notnull"] as Int) "
                    + "\((row["dflt_value"] as String?) ?? "-") \(row["pk"] as Int)"
            }
        }
        return columns
    }

    @Test func aNewJournalHasTheTablesTheMigrationsMake() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let migrated = try DatabaseQueue(path: folder.file("migrated.sqlite").path)
        try JournalSchema.migrator.migrate(migrated)
        let made = try Journal.open(at: folder.file("new.sqlite"))

        let expected = try migrated.read(Self.schema)
        let found = try made.writer.read(Self.schema)
        #expect(expected.count >= 13, "the migrations made \(expected.keys.sorted())")
        #expect(found.keys.sorted() == expected.keys.sorted())
        for (object, definition) in expected {
            #expect(found[object] == definition, "\(object)")
        }
        #expect(try made.writer.read(Self.columns) == migrated.read(Self.columns))
    }

    @Test func aNewJournalCountsEveryMigrationApplied() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("journal.sqlite")
        let migrator = JournalSchema.migrator
        let journal = try Journal.open(at: url)
        let (applied, completed, superseded) = try journal.writer.read { db in
            (
                try migrator.appliedMigrations(db), try migrator.hasCompletedMigrations(db),
                try migrator.hasBeenSuperseded(db)
            )
        }
        #expect(applied == migrator.migrations)
        #expect(completed && !superseded)
        // Opened again, it is left as it is: the migrator has nothing to run.
        let schema = try journal.writer.read(Self.schema)
        let again = try Journal.open(at: url)
        #expect(try again.writer.read(Self.schema) == schema)
    }

    @Test func aJournalMigratedPartlyIsMigratedTheRestOfTheWay() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("journal.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try JournalSchema.migrator.migrate(queue, upTo: "v2: items outside the sync window")
        try queue.close()

        let journal = try Journal.open(at: url)
        let fresh = try Journal.open(at: folder.file("new.sqlite"))
        #expect(try journal.writer.read(Self.schema) == fresh.writer.read(Self.schema))
        let applied = try journal.writer.read(JournalSchema.migrator.appliedMigrations)
        #expect(applied == JournalSchema.migrator.migrations)
    }
}
