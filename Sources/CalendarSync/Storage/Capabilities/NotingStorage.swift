import Foundation

/// A storage with something to tell the person about the writes it made, beyond their
/// outcome: a server that deleted a meeting but could not send its cancellation, say. The
/// engine adds what it tells to the run's report (``SyncReport/notes``).
public protocol NotingStorage: CalendarStorage {
    /// What happened since the last call, once.
    func takeNotes() -> [String]
    /// What the server did with the person's deletions of meetings since the last call, by
    /// UID, once (see ``DeletionScheduling``).
    func takeDeletionScheduling() -> [String: DeletionScheduling]
}

extension NotingStorage {
    /// None: the storage learns nothing of a deletion's scheduling.
    public func takeDeletionScheduling() -> [String: DeletionScheduling] { [:] }
}

/// Notes a storage keeps until the engine takes them.
final class StorageNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String] = []

    func add(_ note: String) { lock.withLock { notes.append(note) } }
    func take() -> [String] {
        lock.withLock {
            defer { notes = [] }; return notes
        }
    }
}
