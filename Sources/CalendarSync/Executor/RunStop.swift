import Synchronization

/// How a run is asked to stop early (SIGINT, SIGTERM in the command), and where it may be.
///
/// Writes are made in *sections*: from a batch's intents to the commit of its outcomes, or
/// around a write made on its own. Between sections nothing is half-done: every write made has
/// its journal row. A stop asked for (``request(_:)``) ends the run at its next safe point: no
/// new section opens, the writes of a batch under way that have not started are not started,
/// and the run throws ``RunStopped`` once the open sections are settled. Whoever waits for the
/// stop may also end the process at once while no section is open (``closeIfIdle()``): a run
/// waiting for a server's answer is then stopped without waiting for it.
public final class StopGate: Sendable {
    private struct State {
        var reason: String?
        var sections = 0
        var closed = false
    }
    private let state = Mutex(State())

    /// A gate with no stop asked for and no section open.
    public init() {}

    /// Asks the run to stop at its next safe point; the first reason given is kept.
    public func request(_ reason: String) {
        state.withLock { if $0.reason == nil { $0.reason = reason } }
    }

    /// The reason a stop was asked for, nil while none was.
    public var requested: String? { state.withLock { $0.reason } }

    /// True when a stop was asked for and no write section is open; the gate then stays shut
    /// (a section that tries to open throws ``RunStopped``), so the caller may end the process.
    public func closeIfIdle() -> Bool {
        state.withLock { s in
            guard s.reason != nil, s.sections == 0 else { return false }
            s.closed = true
            return true
        }
    }

    /// Opens a write section. - Throws: ``RunStopped`` when a stop was asked for.
    func enter() throws {
        try state.withLock { s in
            if let reason = s.reason { throw RunStopped(reason: reason) }
            s.sections += 1
        }
    }

    /// Closes a write section opened by ``enter()``.
    func leave() {
        state.withLock { $0.sections -= 1 }
    }
}

/// A run stopped at a safe point because it was asked to (``StopGate``): every write it made
/// has its outcome and journal row committed, none is left half-done, and the next run
/// carries on from there.
public struct RunStopped: Error, Sendable, Equatable {
    /// What asked for the stop, as given to ``StopGate/request(_:)``.
    public var reason: String
    /// The stop asked for by `reason`.
    public init(reason: String) { self.reason = reason }
}

extension Executor {
    /// Stops the run here when asked: the batches still flushing are settled first (their
    /// outcomes and rows committed), then ``RunStopped`` is thrown.
    func stopIfAsked() async throws {
        guard let reason = stop?.requested else { return }
        try await settle()
        throw RunStopped(reason: reason)
    }

    /// Runs `body` as a write section of the stop gate (see ``StopGate``).
    func inSection<T>(_ body: () async throws -> T) async throws -> T {
        try stop?.enter()
        defer { stop?.leave() }
        return try await body()
    }
}

extension RunStopped: CustomStringConvertible {
    /// `not made: the run was asked to stop (reason)`, the line of an item the stop left unwritten.
    public var description: String { "not made: the run was asked to stop (\(reason))" }
}
