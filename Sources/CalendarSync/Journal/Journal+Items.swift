import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The items the journal knows: read, and changed one by one or in batches.
extension Journal {
    /// Every item the journal knows (without their base content).
    public func items() throws -> [JournalItem] {
        try fetchItems(where: "", arguments: [])
    }

    func fetchItems(where condition: String, arguments: StatementArguments) throws -> [JournalItem] {
        try reading { db in
            // A cursor, not `fetchAll`: each row becomes an item as it is stepped, so a journal of
            // 100,000 items is never also held as 100,000 database rows. Columns by position.
            let rows = try Row.fetchCursor(
                db,
                sql:
                    "SELECT key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, lastModified, sequence, spanStart, spanEnd FROM item "
                    + condition,
                arguments: arguments)
            var items: [JournalItem] = []
            if condition.isEmpty { items.reserveCapacity(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0) }
            while let row = try rows.next() {
                items.append(
                    JournalItem(
                        key: ItemKey(row[0]),
                        local: SideRecord(href: row[1], etag: row[2], hash: .stored(row[3])),
                        remote: SideRecord(href: row[4], etag: row[5], hash: .stored(row[6])),
                        lastModified: row[7], sequence: row[8],
                        span: TimeSpan(start: row[9], end: row[10])))
            }
            return items
        }
    }

    /// Each item's href and etag on `side`, as the journal last saw them.
    public func versions(_ side: Side) throws -> [ItemVersion] {
        let columns = side == .local ? "localHref, localEtag" : "remoteHref, remoteEtag"
        return try reading { db in
            try Array(
                Row.fetchCursor(db, sql: "SELECT \(columns) FROM item").map { ItemVersion(href: $0[0], etag: $0[1]) })
        }
    }

    /// Calls `body` with each item's href and etag on `side`, in the byte order of the hrefs
    /// (SQLite's BINARY collation: `memcmp`, a prefix first), read through a cursor so that a
    /// journal of a million rows is never held as one array.
    public func forEachVersion(_ side: Side, _ body: (_ href: ItemHref, _ etag: ItemETag) throws -> Void) throws {
        try reading { db in try Self.forEachVersion(side, in: db, body) }
    }

    /// `forEachVersion` inside a transaction already open (a migration's): the bytes SQLite
    /// holds made strings (``forEachVersionText(_:in:_:)``).
    static func forEachVersion(
        _ side: Side, in db: Database, _ body: (_ href: ItemHref, _ etag: ItemETag) throws -> Void
    ) throws {
        try forEachVersionText(side, in: db) { href, etag in
            try body(ItemHref(String(decoding: href, as: UTF8.self)), ItemETag(String(decoding: etag, as: UTF8.self)))
        }
    }

    /// As ``forEachVersion(_:_:)``, with the href's and etag's UTF-8 bytes where SQLite holds
    /// them, valid only during the call: a listing's token hashes the bytes, and a string made
    /// for each and appended again was four fifths of what the token of a first pull cost.
    func forEachVersionText(
        _ side: Side, _ body: (_ href: UnsafeBufferPointer<UInt8>, _ etag: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        try reading { db in try Self.forEachVersionText(side, in: db, body) }
    }

    /// `forEachVersionText` inside a transaction already open (a migration's).
    static func forEachVersionText(
        _ side: Side, in db: Database,
        _ body: (_ href: UnsafeBufferPointer<UInt8>, _ etag: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        let columns = side == .local ? "localHref, localEtag" : "remoteHref, remoteEtag"
        let order = side == .local ? "localHref" : "remoteHref"
        let statement = try db.makeStatement(sql: "SELECT \(columns) FROM item ORDER BY \(order)")
        // The statement is finalized when it goes: it is kept to the end of the loop.
        try withExtendedLifetime(statement) {
            let s = statement.sqliteStatement
            defer { sqlite3_reset(s) }
            func text(_ column: CInt) -> UnsafeBufferPointer<UInt8> {
                // The pointer first, then the length (SQLite's order: the text is made before it is measured).
                let start = sqlite3_column_text(s, column)
                return UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(s, column)))
            }
            while true {
                let code = sqlite3_step(s)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
                        message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
                }
                try body(text(0), text(1))
            }
        }
    }

    /// How many items the journal knows, without reading them.
    public func itemCount() throws -> Int {
        try reading { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0 }
    }

    /// True when the journal knows no item, as before the first sync.
    public func isEmpty() throws -> Bool {
        try reading { db in try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM item)") ?? true }
    }

    /// The journal's rows for these keys.
    public func items(keys: [ItemKey]) throws -> [JournalItem] {
        try items(matching: keys.map(\.value), column: "key")
    }

    /// The journal's rows whose href on `side` is one of `hrefs`.
    public func items(hrefs: [ItemHref], on side: Side) throws -> [JournalItem] {
        try items(matching: hrefs.map(\.value), column: side == .local ? "localHref" : "remoteHref")
    }

    /// The rows whose `column` holds one of `values`, asked in chunks that stay far below
    /// SQLite's limit on bound values.
    private func items(matching values: [String], column: String) throws -> [JournalItem] {
        var found: [JournalItem] = []
        var start = 0
        while start < values.count {
            let chunk = Array(values[start..<min(start + 500, values.count)])
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            found += try fetchItems(where: "WHERE \(column) IN (\(marks))", arguments: StatementArguments(chunk))
        }
        return found
    }

    /// The content both sides agreed on at the last sync of `key` (the merge base); nil when
    /// there is none, or when the journal holds one calgw cannot read (the item is then
    /// handled as a change on both sides without a base: a conflict, nothing lost).
    public func base(for key: ItemKey) throws -> Data? {
        var found: Data?
        try forEachBase(of: [key]) { _, base in found = base }
        return found
    }

    /// Calls `body` with the merge base of each of `keys` the journal holds one for (as
    /// ``base(for:)`` reads it), in no particular order: the bases of a first pull's batch
    /// are read pack by pack, each pack once, however many keys ask and in whatever order.
    func forEachBase(of keys: [ItemKey], _ body: (ItemKey, Data) throws -> Void) throws {
        try reading { db in
            var packed: [Int64: [(ItemKey, Range<Int>)]] = [:]
            let row = try db.cachedStatement(sql: "SELECT base, basePack FROM item WHERE key = ?")
            for key in keys {
                guard let found = try Row.fetchOne(row, arguments: [key.value]) else { continue }
                let stored: Data = found[0]
                if let pack: Int64 = found[1] {
                    if let member = BasePack.member(stored) { packed[pack, default: []].append((key, member)) }
                } else if let base = StoredBase.unpack(stored) {
                    try body(key, base)
                }
            }
            for (pack, members) in packed {
                guard let bases = try unpackedPack(pack, db) else { continue }
                for (key, member) in members where member.upperBound <= bases.count {
                    try body(key, bases.subdata(in: member))
                }
            }
        }
    }

    /// The bases of pack `id`, read once while they stay in ``packs``.
    private func unpackedPack(_ id: Int64, _ db: Database) throws -> Data? {
        if let kept = packs.withLock({ $0.bases(of: id) }) { return kept }
        guard let bases = try BasePack.read(id, db) else { return nil }
        packs.withLock { $0.keep(bases, of: id) }
        return bases
    }

    /// Applies an item change in its own transaction.
    func apply(_ change: JournalChange) throws {
        try applyAll([change])
    }

    /// Applies item changes in one transaction.
    func applyAll(_ changes: [JournalChange]) throws {
        let bulk = isBulkLoading
        try writing { db in
            let now = Self.now()
            var rows = try ItemRowStatements(changes, bulk: bulk, db)
            for change in changes { try Self.apply(change, db, at: now, bulk: bulk, rows: &rows) }
            if !bulk { try BasePack.releaseUnused(db) }
        }
    }

    /// - Parameter bulk: rows are being loaded into an empty journal without its indexes: a
    ///   new row is appended (`endBulkLoad()` keeps the last row of a key or href). The
    ///   transaction's bases were packed together (``ItemRowStatements``).
    /// - Parameter rows: the transaction's item-row statements, prepared on first use.
    static func apply(
        _ change: JournalChange, _ db: Database, at now: String, bulk: Bool = false,
        rows: inout ItemRowStatements
    ) throws {
        switch change {
        case .none: break
        case .remove(let key):
            try db.execute(sql: "DELETE FROM item WHERE key = ?", arguments: [key.value])
        case .upsert(let item, let base) where bulk:
            let stored =
                (ItemRowStatements.packedBase(change) != nil ? rows.nextPacked() : nil)
                ?? base.map { BasePack.Stored(base: StoredBase.pack($0)) }
            try append(item, base: stored, db, at: now, into: &rows.append)
        case .upsert(let item, let base):
            let stored = base.map { BasePack.Stored(base: StoredBase.pack($0)) }
            do {
                try upsert(item, base: stored, db, at: now, into: &rows.upsert)
            } catch let error as JournalError where error.isUniqueConstraint {
                // An href belongs to one item: the rows that claimed these hrefs under another
                // key are dropped, and the row written again. Looked for only when the
                // write failed (the unique hrefs say so): a batch of new rows needs no search.
                try db.cachedStatement(sql: "DELETE FROM item WHERE key <> ? AND (localHref = ? OR remoteHref = ?)")
                    .execute(arguments: [item.key.value, item.local.href, item.remote.href])
                try upsert(item, base: stored, db, at: now, into: &rows.upsert)
            }
        }
    }

    /// Inserts or updates the row of `item`'s key.
    /// - Throws: a `JournalError` that ``JournalError/isUniqueConstraint`` when another key's row
    ///   holds one of its hrefs.
    private static func upsert(
        _ item: JournalItem, base: BasePack.Stored?, _ db: Database, at now: String, into statement: inout RowStatement?
    ) throws {
        var insert =
            try statement
            ?? RowStatement(
                db,
                sql: """
                    INSERT INTO item (key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, lastModified, sequence, spanStart, spanEnd, base, syncedAt, basePack)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, COALESCE(?12, X''), ?13, ?14)
                    ON CONFLICT(key) DO UPDATE SET localHref = excluded.localHref, localEtag = excluded.localEtag,
                        localHash = excluded.localHash, remoteHref = excluded.remoteHref, remoteEtag = excluded.remoteEtag,
                        remoteHash = excluded.remoteHash, lastModified = excluded.lastModified, sequence = excluded.sequence,
                        spanStart = excluded.spanStart, spanEnd = excluded.spanEnd,
                        base = CASE WHEN ?12 IS NULL THEN item.base ELSE excluded.base END, syncedAt = excluded.syncedAt,
                        basePack = CASE WHEN ?12 IS NULL THEN item.basePack ELSE excluded.basePack END
                    """)
        bindRow(item, base: base, now: now, into: &insert)
        defer { statement = insert }
        try insert.run()
    }

    /// Appends a row for `item` (a bulk load: no index to consult or keep). Without a base, the
    /// base of the key's last row is kept, as an upsert keeps it.
    private static func append(
        _ item: JournalItem, base: BasePack.Stored?, _ db: Database, at now: String, into statement: inout RowStatement?
    ) throws {
        var insert =
            try statement
            ?? RowStatement(
                db,
                sql: """
                    INSERT INTO item (key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, lastModified, sequence, spanStart, spanEnd, base, syncedAt, basePack)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,
                        CASE WHEN ?12 IS NOT NULL THEN ?12
                             ELSE COALESCE((SELECT base FROM item WHERE key = ?1 ORDER BY rowid DESC LIMIT 1), X'') END, ?13,
                        CASE WHEN ?12 IS NOT NULL THEN ?14
                             ELSE (SELECT basePack FROM item WHERE key = ?1 ORDER BY rowid DESC LIMIT 1) END)
                    """)
        bindRow(item, base: base, now: now, into: &insert)
        defer { statement = insert }
        try insert.run()
    }

    /// Binds an item row's fourteen values, in the order of the item table's columns.
    private static func bindRow(
        _ item: JournalItem, base: BasePack.Stored?, now: String, into insert: inout RowStatement
    ) {
        // One value after another, not from an array made for each row; the hashes bound as
        // their bytes, without a string.
        insert.bind(item.key.value)
        insert.bind(item.local.href.value)
        insert.bind(item.local.etag.value)
        insert.bind(item.local.hash)
        insert.bind(item.remote.href.value)
        insert.bind(item.remote.etag.value)
        insert.bind(item.remote.hash)
        insert.bind(item.lastModified)
        insert.bind(item.sequence)
        insert.bind(item.span.start)
        insert.bind(item.span.end)
        insert.bind(base?.base)
        insert.bind(now)
        insert.bind(base?.pack)
    }
}
