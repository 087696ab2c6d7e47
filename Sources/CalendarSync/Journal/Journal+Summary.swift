import Foundation
import GRDB

extension Journal {
    /// What a journal says of its pair at a glance: when it last synced, how many items it knows.
    public struct Summary: Sendable, Equatable {
        public var lastSync: String?
        public var items: Int
    }

    /// Reads the summary of the journal at `url` without writing to it (nil when there is no
    /// journal yet), for `status` of an account, whose calendars each keep one.
    /// - Throws: when the file cannot be read as a journal.
    public static func summary(at url: URL) throws -> Summary? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        return try queue.read { db in
            Summary(lastSync: try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'lastSync'"),
                    items: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0)
        }
    }
}
