import Synchronization

/// Called after every side effect of a run (a journal commit, a write to a side) with its
/// running number, starting at 1. Crash tests stop the process there to check that the next
/// run converges; production code passes nil.
public typealias FaultHook = @Sendable (Int) throws -> Void

/// Thrown by a fault hook to stop a run on the spot, as a crash would: the executor passes
/// it through without recording anything more.
public struct RunInterrupted: Error, Sendable {
    /// The interruption; it carries nothing.
    public init() {}
}

/// One count of a run's side effects, shared by every step that writes (each executor the run
/// makes, recovery, the calendar's name and colour, an account's collections), so that a fault
/// hook's k-th call is the run's k-th side effect wherever it happens.
final class SideEffects: Sendable {
    /// Called with each side effect's number (nil: none is watched).
    let hook: FaultHook?
    private let count = Mutex(0)

    init(_ hook: FaultHook?) { self.hook = hook }

    /// Counts one side effect just made and calls the hook with its number.
    /// - Throws: what the hook throws (``RunInterrupted``).
    func happened() throws {
        guard let hook else { return }
        try hook(
            count.withLock { n in
                n += 1; return n
            })
    }
}
