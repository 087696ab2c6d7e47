import GRDB

/// Loading an empty journal's item rows without their indexes: a first pull of 100,000 items
/// appends its rows batch by batch and builds the three unique indexes once at its end, instead
/// of rewriting nearly every index page at each batch's commit (UIDs come in no order).
///
/// While the indexes are missing the journal is still whole: every row is committed with its
/// batch's outcomes, as before, and lookups only take longer. A run interrupted meanwhile
/// leaves them missing; the next open of the journal builds them.
extension Journal {
    /// The item table's unique indexes: name and column.
    static let itemIndexes = [("itemKey", "key"), ("itemLocalHref", "localHref"), ("itemRemoteHref", "remoteHref")]

    /// Starts a bulk load when the journal holds no item (otherwise nothing changes): the item
    /// indexes are dropped and rows written until `endBulkLoad()` are appended.
    func beginBulkLoad() throws {
        let empty = try writing { db in
            guard try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM item)") == true else { return false }
            for (name, _) in Self.itemIndexes { try db.execute(sql: "DROP INDEX IF EXISTS \(name)") }
            return true
        }
        bulkLoading.withLock { $0 = empty }
    }

    /// Ends a bulk load: the item indexes are built. Rows are upserted again from then on.
    func endBulkLoad() throws {
        bulkLoading.withLock { $0 = false }
        try restoreItemIndexes()
    }

    var isBulkLoading: Bool { bulkLoading.withLock { $0 } }

    /// The item indexes the journal lacks (none, but after a load a run did not end).
    static func missingItemIndexes(_ db: Database) throws -> [(name: String, column: String)] {
        let present = Set(
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'item'"))
        return itemIndexes.filter { !present.contains($0.0) }.map { (name: $0.0, column: $0.1) }
    }

    /// Builds each missing item index. Should rows share a key or an href (a load appends what
    /// an upsert would have replaced), the last written is kept, as an upsert would have kept it.
    func restoreItemIndexes() throws {
        try writing { db in
            // In the order of `itemIndexes`, the key first: the rows an href's index then drops
            // are other keys' rows, as an upsert drops them.
            for (name, column) in try Self.missingItemIndexes(db) {
                let create = "CREATE UNIQUE INDEX \(name) ON item(\(column))"
                do {
                    try db.execute(sql: create)
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    try db.execute(
                        sql: "DELETE FROM item WHERE rowid NOT IN (SELECT MAX(rowid) FROM item GROUP BY \(column))")
                    try db.execute(sql: create)
                }
            }
            try BasePack.releaseUnused(db)
        }
    }
}
