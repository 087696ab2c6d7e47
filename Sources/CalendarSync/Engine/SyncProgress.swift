/// How far a run's transfer phase has come: the writes it planned (downloads into the vdir,
/// uploads, deletions on either side, conflicts to resolve) and how many have finished.
///
/// The engine reports one value when the transfer starts (`done == 0`) and one after each
/// planned write finishes, whether it succeeded or failed, so `done` reaches `total` at the
/// end. What the values are drawn as (a bar on a terminal, nothing in a script) is the
/// caller's business: the engine knows nothing of terminals.
///
/// ```swift
/// let report = try await SyncSession.run(journalAt: file, local: vdir, remote: calendar, policy: policy,
///                                        progress: { p in print("\(p.done)/\(p.total)") })
/// ```
public struct SyncProgress: Sendable, Equatable {
    /// Writes planned for this run.
    public var total: Int
    /// Writes finished so far (done or failed).
    public var done: Int
    /// Of `done`, how many failed (their errors are in the report).
    public var failed: Int

    /// Progress after `done` of `total` writes, `failed` of them failed.
    public init(total: Int, done: Int = 0, failed: Int = 0) {
        self.total = total
        self.done = done
        self.failed = failed
    }

    /// True once every planned write has finished.
    public var isComplete: Bool { done >= total }
}

/// Called with the transfer's progress; may be called from several tasks at once, in order of
/// `done`.
public typealias SyncProgressHandler = @Sendable (SyncProgress) -> Void
