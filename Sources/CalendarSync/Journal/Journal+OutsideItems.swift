import Foundation
import GRDB
import Synchronization

/// Items an earlier windowed run saw outside its sync window.
extension Journal {
    /// True when an earlier run with a sync window left items outside it that no row holds:
    /// a run without that window must plan them, even when neither side changed.
    public func hasOutsideItems() throws -> Bool {
        try reading { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM outsideItem)") ?? false }
    }

    /// Items of `side` last seen outside the sync window and in no journal row: kept so that
    /// they are not read again while unchanged, and are noticed when the window reaches them.
    public func outsideItems(_ side: Side) throws -> [SideItem] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outsideItem WHERE side = ?", arguments: [side.rawValue]).map {
                row in
                SideItem(
                    key: ItemKey(row["key"]), href: row["href"], etag: row["etag"], hash: .stored(row["hash"]),
                    lastModified: row["lastModified"], sequence: row["sequence"],
                    span: TimeSpan(start: row["spanStart"], end: row["spanEnd"]))
            }
        }
    }

    /// Replaces the outside-window items of `side`.
    func replaceOutsideItems(_ side: Side, with items: [SideItem]) throws {
        try writing { db in
            try db.execute(sql: "DELETE FROM outsideItem WHERE side = ?", arguments: [side.rawValue])
            for item in items {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO outsideItem (side, href, etag, key, hash, lastModified, sequence, spanStart, spanEnd)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        side.rawValue, item.href, item.etag, item.key.value, item.hash.storedValue, item.lastModified,
                        item.sequence, item.span.start, item.span.end,
                    ])
            }
        }
    }
}
