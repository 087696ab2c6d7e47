import Foundation

/// Everything an ``Executor`` is told before it runs, as one value made in one place
/// (`SyncEngine.executorConfiguration`), so that every kind of run — a first pull, an ordinary
/// run, a narrowed one, an account's calendar, a takeover — executes its plan alike: the same
/// storages, direction, conflict strategy and, above all, the same person's actions, which a
/// write must send as such and never as a copy.
struct ExecutorConfiguration: Sendable {
    var local: any CalendarStorage
    var remote: any CalendarStorage
    var journal: Journal
    var resolver: ConflictResolver
    var direction: SyncDirection
    /// The run's count of side effects, shared with its other steps (see ``SideEffects``).
    var effects: SideEffects
    /// Told the transfer's total, then of each planned write that finished (nil: nobody watches).
    var progress: SyncProgressHandler?
    /// Asked before each batch and each write on its own whether to stop there, and told where
    /// writes are in flight (nil: never stops).
    var stop: StopGate?
    /// The remote is never written (a subscription): conflicts keep the local edit as a copy.
    var remoteIsReadOnly = false
    /// The items whose writes are the person's own action (``SyncPolicy/personsActions``).
    var personsActions: Set<String> = []
    /// Of those, the answers to invitations (``SyncPolicy/answers``).
    var answers: Set<String> = []
}
