import Foundation

/// A storage that may keep another version than the bytes written to it: a CalDAV server that
/// schedules rewrites the meetings it sends invitations for (SCHEDULE-STATUS on each attendee,
/// a raised SEQUENCE). The executor takes that version after each write and brings the side the
/// item was copied from to it in the same run, so that both sides hold what the server keeps.
public protocol RewritingStorage: CalendarStorage {
    /// The version kept of the last write at `href` when it is not the bytes written; given
    /// once, nil afterwards and for every write kept as written.
    func takeRewrittenVersion(at href: ItemHref) -> StoredItem?

    /// Whether `stored`, what the storage holds at a name now, is what a write of content
    /// hashing to `written` left there: the same content, or the same with what this storage
    /// adds to everything it keeps. Recovery asks it of an interrupted run's write, whose
    /// answer (and so its rewritten version) was never read.
    func holds(_ stored: Data, afterWriting written: ContentHash) async throws -> Bool
}

extension RewritingStorage {
    /// The same content only: a storage that adds nothing of its own to every write.
    public func holds(_ stored: Data, afterWriting written: ContentHash) async throws -> Bool {
        ContentHash.of(stored) == written
    }
}

/// The versions a storage kept in place of what was written, until the executor takes them.
final class RewrittenVersions: @unchecked Sendable {
    private let lock = NSLock()
    private var versions: [ItemHref: StoredItem] = [:]

    func store(_ item: StoredItem) { lock.withLock { versions[item.href] = item } }
    func take(_ href: ItemHref) -> StoredItem? { lock.withLock { versions.removeValue(forKey: href) } }
}
