/// Asked at each safe point of a run (before a batch of writes, before a write on its own):
/// a reason (`"SIGINT"`) stops the run there, nil lets it go on. The command passes one that
/// reads its signal handler's flag; a library user may pass any.
public typealias StopCheck = @Sendable () -> String?

/// A run stopped at a safe point because it was asked to (``StopCheck``): every write it made
/// has its outcome and journal row committed, none is left half-done, and the next run
/// carries on from there.
public struct RunStopped: Error, Sendable, Equatable {
    /// What asked for the stop, as the stop check said it.
    public var reason: String
    public init(reason: String) { self.reason = reason }
}

extension Executor {
    /// Stops the run here when asked: the batches still flushing are settled first (their
    /// outcomes and rows committed), then ``RunStopped`` is thrown.
    func stopIfAsked() async throws {
        guard let reason = shouldStop?() else { return }
        try await settle()
        throw RunStopped(reason: reason)
    }
}
