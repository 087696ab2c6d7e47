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
///
/// Texts and blobs are copied into the statement's own buffer (``BoundBytes``) and bound
/// where they are (`SQLITE_STATIC`): bound as SQLite's copies, each value was freed and
/// allocated again at every row, some 500 instructions a value.
struct RowStatement {
    private let statement: Statement
    private let connection: SQLiteConnection?
    private var index: CInt = 0
    /// The first binding SQLite refused since the last run (`SQLITE_OK`: none).
    private var bindingError = SQLITE_OK
    /// The texts and blobs bound since the last run.
    private let bytes = BoundBytes()

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

    /// Binds a hash as the journal keeps it (``ContentHash/storedValue``): a SHA-256 as its
    /// bytes, any other hash as its text.
    mutating func bind(_ hash: ContentHash) {
        hash.withStoredBytes { bytes in
            if let bytes { bind(blob: bytes) } else { hash.withText { bind(text: $0) } }
        }
    }

    /// Binds UTF-8 as text, from the statement's buffer (or as SQLite's copy when it does not
    /// fit there). An empty text is bound as one (a null pointer would bind NULL).
    private mutating func bind(text: UnsafeBufferPointer<UInt8>) {
        index += 1
        let i = index, s = statement.sqliteStatement
        guard let base = text.baseAddress, !text.isEmpty else {
            note(sqlite3_bind_text(s, i, "", 0, transient))
            return
        }
        let (pointer, destructor) = bytes.keep(UnsafeRawBufferPointer(start: base, count: text.count))
        note(sqlite3_bind_text(s, i, pointer.assumingMemoryBound(to: CChar.self), CInt(text.count), destructor))
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
        value.withUnsafeBytes { bind(blobAt: i, $0) }
    }

    /// Binds bytes as a blob (not empty).
    private mutating func bind(blob: UnsafeRawBufferPointer) {
        index += 1
        bind(blobAt: index, blob)
    }

    private mutating func bind(blobAt i: CInt, _ blob: UnsafeRawBufferPointer) {
        let (pointer, destructor) = bytes.keep(blob)
        note(sqlite3_bind_blob(statement.sqliteStatement, i, pointer, CInt(blob.count), destructor))
    }

    /// Runs the statement with the values bound since the last run, then readies it for the next.
    /// - Throws: `JournalError` (`.storage`) over a `DatabaseError` with SQLite's extended result code.
    mutating func run() throws {
        index = 0
        let s = statement.sqliteStatement
        if bindingError != SQLITE_OK {
            defer {
                bindingError = SQLITE_OK
                sqlite3_clear_bindings(s)
                bytes.clear()
            }
            throw JournalError.rowsNotWritten(
                DatabaseError(
                    resultCode: ResultCode(rawValue: bindingError), message: "a value could not be bound",
                    sql: statement.sql))
        }
        let code = sqlite3_step(s)
        sqlite3_reset(s)
        // No binding outlives the bytes it points into.
        sqlite3_clear_bindings(s)
        bytes.clear()
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

/// The bytes of the texts and blobs bound to one row of a ``RowStatement``, one copy after
/// another in a buffer of the statement's, until the row is run: SQLite reads them there
/// (`SQLITE_STATIC`). A value that does not fit in what is left is bound as SQLite's copy.
///
/// Used by its statement alone, on the journal's queue: what is used of it is not checked for
/// overlapping access at run time (`@exclusivity(unchecked)`, a check for each value bound).
final class BoundBytes {
    /// Room for the values of a row of the item table several times over.
    static let capacity = 64 * 1024
    private let base = UnsafeMutableRawPointer.allocate(byteCount: BoundBytes.capacity, alignment: 16)
    @exclusivity(unchecked) private var used = 0

    deinit { base.deallocate() }

    /// Where `bytes` are kept for SQLite to read, and how SQLite is to take them: in the
    /// buffer, read in place (no destructor: `SQLITE_STATIC`); else their own address, copied
    /// by SQLite (`SQLITE_TRANSIENT`).
    func keep(_ bytes: UnsafeRawBufferPointer) -> (UnsafeRawPointer, sqlite3_destructor_type?) {
        guard let source = bytes.baseAddress, bytes.count <= Self.capacity - used else {
            return (bytes.baseAddress ?? UnsafeRawPointer(base), transient)
        }
        let copy = base + used
        copy.copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
        return (UnsafeRawPointer(copy), nil)
    }

    /// Makes the whole buffer free again: the row was run and its bindings cleared.
    func clear() { used = 0 }
}

/// The item-row statements of one journal transaction, each prepared on its first use: a cached
/// statement is found by hashing its text, which for a batch of rows cost more than binding them;
/// and for a bulk load, the transaction's bases packed together (``BasePack``), handed out in
/// order to the rows that store them.
struct ItemRowStatements {
    var upsert: RowStatement?
    var append: RowStatement?
    private var packed: [BasePack.Stored] = []
    private var next = 0

    /// Statements for a transaction that applies `changes`, their bases packed when `bulk`.
    init(_ changes: [JournalChange], bulk: Bool, _ db: Database) throws {
        try self.init(bases: bulk ? changes.compactMap(Self.packedBase) : [], db)
    }

    /// Statements for a bulk load's transaction that stores `bases` (in the order of its
    /// changes, ``packedBase(_:)``).
    init(bases: [Data], _ db: Database) throws {
        if !bases.isEmpty { packed = try BasePack.write(bases, db) }
    }

    /// The base a bulk load's `change` stores from the pack: an upsert's base that is not empty.
    static func packedBase(_ change: JournalChange) -> Data? {
        guard case .upsert(_, let base?) = change, !base.isEmpty else { return nil }
        return base
    }

    /// The next packed base, in the order of the changes given; nil when none was packed.
    mutating func nextPacked() -> BasePack.Stored? {
        guard next < packed.count else { return nil }
        defer { next += 1 }
        return packed[next]
    }
}
