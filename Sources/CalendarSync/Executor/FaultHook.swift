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
    private let hook: FaultHook?
    private let count = Mutex(0)

    init(_ hook: FaultHook?) { self.hook = hook }

    /// Counts one side effect just made and calls the hook with its number.
    /// - Throws: what the hook throws (``RunInterrupted``).
    func happened() throws {
        guard let hook else { return }
        try hook(count.withLock { n in n += 1; return n })
    }

    /// The hook to give an executor: its side effects count on from this count.
    var hookForExecutor: FaultHook? {
        hook == nil ? nil : { @Sendable [self] _ in try happened() }
    }
}
