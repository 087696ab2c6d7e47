import Foundation

/// What a server did with a person's deletion of a meeting, as the storage learnt it on the
/// write. A deletion leaves no version to read `SCHEDULE-STATUS` back from (see
/// ``SchedulingReport``), so the storage that deleted says what it knows: the status the server
/// marked on an attendee's decline it wrote before deleting, or the server's failure to send
/// the message at all.
public struct DeletionScheduling: Sendable, Equatable {
    /// The SCHEDULE-STATUS the server marked on the message's recipient (the organizer of a
    /// decline); nil when it marked none.
    public var status: String?
    /// Why the server sent nothing (its own failure, the meeting then deleted as a copy); nil
    /// when it was asked and did not fail.
    public var failure: String?

    /// A deletion whose message the server marked `status`, or failed to send for `failure`.
    public init(status: String? = nil, failure: String? = nil) {
        self.status = status
        self.failure = failure
    }
}

/// The ``DeletionScheduling`` of the meetings a storage deleted as a person's action, by UID,
/// kept until the engine takes them into the run's report
/// (``SyncReport/deletionScheduling``).
final class DeletionSchedulingLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: DeletionScheduling] = [:]

    func note(_ uid: String, _ scheduling: DeletionScheduling) { lock.withLock { entries[uid] = scheduling } }
    func take() -> [String: DeletionScheduling] {
        lock.withLock {
            defer { entries = [:] }; return entries
        }
    }
}
