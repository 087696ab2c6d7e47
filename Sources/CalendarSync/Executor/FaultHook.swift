/// Called after every side effect of a run (a journal commit, a write to a side) with its
/// running number, starting at 1. Crash tests stop the process there to check that the next
/// run converges; production code passes nil.
public typealias FaultHook = @Sendable (Int) throws -> Void

/// Thrown by a fault hook to stop a run on the spot, as a crash would: the executor passes
/// it through without recording anything more.
public struct RunInterrupted: Error, Sendable {
    public init() {}
}
