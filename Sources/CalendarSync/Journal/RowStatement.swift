import Foundation
import GRDB
import GRDBSQLite

/// A cached statement bound and run straight through SQLite's C interface, for the journal's
/// statements that run once per item in batches of thousands (the item rows).
///
/// GRDB's `StatementArguments` box each value in an array of existentials per row: for a
/// first pull that boxing cost about as much as SQLite's own work. Values here are bound in
/// place, in order, and the statement is run and reset; a refusal is a `JournalError` (code
/// `.storage`) that says what to do, with GRDB's `DatabaseError` (SQLite's extended code) as
/// its cause.
struct RowStatement {
    private let statement: Statement
    private let connection: SQLiteConnection?
    private var index: CInt = 0
    /// The first binding SQLite refused since the last run (`SQLITE_OK`: none).
    private var bindingError = SQLITE_OK

    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        connection = db.sqliteConnection
    }

    mutating func bind(_ value: String?) {
        guard var value else {
            index += 1
            sqlite3_bind_null(statement.sqliteStatement, index)
            return
        }
        value.withUTF8 { bind(text: $0) }
    }

    /// Binds a hash as its text, written on the stack.
    mutating func bind(_ hash: ContentHash) {
        hash.withText { bind(text: $0) }
    }

    /// Binds UTF-8 as text; SQLite copies it. An empty text is bound as one (a null pointer
    /// would bind NULL).
    private mutating func bind(text: UnsafeBufferPointer<UInt8>) {
        index += 1
        let i = index, s = statement.sqliteStatement
        guard let base = text.baseAddress, !text.isEmpty else {
            note(sqlite3_bind_text(s, i, "", 0, transient))
            return
        }
        note(
            sqlite3_bind_text(
                s, i, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), CInt(text.count), transient))
    }

    mutating func bind(_ value: Int?) {
        index += 1
        guard let value else { sqlite3_bind_null(statement.sqliteStatement, index); return }
        note(sqlite3_bind_int64(statement.sqliteStatement, index, Int64(value)))
    }

    mutating func bind(_ value: Int64?) { bind(value.map(Int.init)) }

    mutating func bind(_ value: Data?) {
        index += 1
        guard let value else { sqlite3_bind_null(statement.sqliteStatement, index); return }
        let i = index, s = statement.sqliteStatement
        // An empty blob is bound as one (a null pointer would bind NULL).
        guard !value.isEmpty else { note(sqlite3_bind_zeroblob(s, i, 0)); return }
        note(value.withUnsafeBytes { sqlite3_bind_blob(s, i, $0.baseAddress, CInt($0.count), transient) })
    }

    /// Runs the statement with the values bound since the last run, then readies it for the next.
    /// - Throws: `JournalError` (`.storage`) over a `DatabaseError` with SQLite's extended result code.
    mutating func run() throws {
        index = 0
        let s = statement.sqliteStatement
        if bindingError != SQLITE_OK {
            defer { bindingError = SQLITE_OK }
            throw JournalError.rowsNotWritten(
                DatabaseError(
                    resultCode: ResultCode(rawValue: bindingError), message: "a value could not be bound",
                    sql: statement.sql))
        }
        let code = sqlite3_step(s)
        sqlite3_reset(s)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            throw JournalError.rowsNotWritten(
                DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: statement.sql))
        }
    }

    private mutating func note(_ code: CInt) {
        if code != SQLITE_OK && bindingError == SQLITE_OK { bindingError = code }
    }
}

/// SQLite copies what is bound (the Swift buffers live only for the call).
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// The item-row statements of one journal transaction, each prepared on its first use: a cached
/// statement is found by hashing its text, which for a batch of rows cost more than binding them.
struct ItemRowStatements {
    var upsert: RowStatement?
    var append: RowStatement?
}
