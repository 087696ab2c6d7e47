import Foundation
import GRDB

extension Journal {
    /// What a journal says of its pair at a glance: when it last synced, how many items it knows.
    public struct Summary: Sendable, Equatable {
        /// When the last complete sync ended (ISO 8601), nil before the first.
        public var lastSync: String?
        /// How many items the journal knows.
        public var items: Int
    }

    /// Reads the summary of the journal at `url` without writing anything (nil when there is
    /// no journal yet), for `status` of an account, whose calendars each keep one.
    ///
    /// SQLite makes a write-ahead log's index files (`-shm`, `-wal`) beside a journal opened
    /// in WAL mode, even read-only. A journal without a log (every finished run leaves none)
    /// is read as an immutable file, which makes none; one with a log (a run working now, or
    /// killed) is read from a copy (``snapshot(at:)``).
    /// - Throws: when the file cannot be read as a journal.
    public static func summary(at url: URL) throws -> Summary? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        func read(_ db: Database) throws -> Summary {
            Summary(
                lastSync: try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'lastSync'"),
                items: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0)
        }
        if !FileManager.default.fileExists(atPath: url.path + "-wal"),
            let path = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
        {
            var configuration = Configuration()
            configuration.readonly = true
            if let queue = try? DatabaseQueue(path: "file:\(path)?immutable=1", configuration: configuration),
                let summary = try? queue.read(read)
            {
                return summary
            }
        }
        return try snapshot(at: url).writer.read(read)
    }
}
