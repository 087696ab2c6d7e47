import Foundation
import GRDB
import Synchronization

/// Each side's change token and metadata, and what the journal keeps of the pair as a whole.
extension Journal {
    /// What the journal keeps of `side` as a collection: its change token, name and color; empty
    /// before the first sync.
    public func collection(_ side: Side) throws -> CollectionState {
        try reading { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM collection WHERE side = ?", arguments: [side.rawValue])
            else {
                return CollectionState()
            }
            return CollectionState(
                token: (row["token"] as String?).map(ChangeToken.init), displayName: row["displayName"],
                color: row["color"])
        }
    }

    /// Drops both sides' change tokens, keeping their metadata: the next run lists both sides in
    /// full. Done before a run's first write, so that a run that ends early (stopped, killed, an
    /// error) leaves no token older than rows it recorded: a server's changes since such a
    /// token can leave out an item created after it and deleted since (Xandikos diffs two
    /// states), and the copy the run made would stay behind.
    func forgetTokens() throws {
        try writing { db in try db.execute(sql: "UPDATE collection SET token = NULL WHERE token IS NOT NULL") }
    }

    func setCollection(_ side: Side, _ state: CollectionState) throws {
        try writing { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO collection (side, token, displayName, color) VALUES (?, ?, ?, ?)",
                arguments: [side.rawValue, state.token?.value, state.displayName, state.color])
        }
    }

    /// When the last complete sync ended (ISO 8601), nil before the first.
    public func lastSync() throws -> String? {
        try reading { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'lastSync'") }
    }

    /// A yes/no the journal keeps for its pair (false when never set).
    func flag(_ name: String) throws -> Bool {
        try reading { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = ?", arguments: [name]) == "1"
        }
    }

    func setFlag(_ name: String, _ value: Bool) throws {
        try writing { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)", arguments: [name, value ? "1" : "0"])
        }
    }

    func setLastSync(_ date: Date = Date()) throws {
        try writing { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO meta (name, value) VALUES ('lastSync', ?)",
                arguments: [Self.iso8601(date)])
        }
    }

    /// The current time as ISO 8601 UTC (`2026-03-01T10:00:00Z`), without a formatter object.
    static func now() -> String { iso8601(Date()) }

    static func iso8601(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ n: Int32, _ width: Int = 2) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return
            "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }
}
