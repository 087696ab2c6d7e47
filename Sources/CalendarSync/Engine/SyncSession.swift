import Foundation

/// One calendar of a pair run with its journal file, holding the pair's lock for the whole run.
/// ``PairRun`` is the way in for commands; this is what it runs for each calendar.
enum SyncSession {
    /// Syncs a pair (`pull`, `push` or `sync`, by `policy.direction`).
    ///
    /// A journal file that is not a database, or is damaged, is moved aside and the run matches
    /// both sides as a first sync does; the report's `skipped` says so in its first line (see
    /// ``Journal/openRecovering(at:dryRun:now:)``).
    /// - Parameter progress: told the transfer's total and each finished write (see ``SyncProgress``).
    /// - Throws: `JournalError.locked` when another run holds the pair; `SyncError`.
    static func run(
        journalAt url: URL, local: any CalendarStorage, remote: any CalendarStorage, policy: SyncPolicy,
        dryRun: Bool = false, prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)? = nil,
        faultHook: FaultHook? = nil, lockTimeout: Double = 5,
        progress: SyncProgressHandler? = nil, stop: StopGate? = nil
    ) async throws -> SyncReport {
        let lock =
            dryRun
            ? try PairLock.forReading(journal: url, timeout: lockTimeout)
            : try PairLock(journal: url, timeout: lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        // A dry run plans from a copy: it writes nothing, not even the journal.
        let (journal, recovery) = try Journal.openRecovering(at: url, dryRun: dryRun)
        var engine = SyncEngine(
            local: local, remote: remote, journal: journal, policy: policy, prompt: prompt,
            faultHook: faultHook, progress: progress)
        engine.stop = stop
        var report = try await engine.run(dryRun: dryRun)
        if let recovery { report.skipped.insert(recovery, at: 0) }
        return report
    }

    /// Keeps the person's actions on meetings in the pair's journal for the run that sends them
    /// (an `event` command run `--offline`, or before its push), so that they are sent as the
    /// person's action whichever run sends them (see ``SyncPolicy/personsActions``).
    /// - Parameter answers: those of `actions` that answer an invitation.
    static func awaitPersonsActions(
        _ actions: Set<String>, answers: Set<String> = [], journalAt url: URL,
        lockTimeout: Double = 5
    ) throws {
        guard !actions.isEmpty else { return }
        let lock = try PairLock(journal: url, timeout: lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        let journal = try Journal.open(at: url)
        var awaited = try journal.awaitedActions()
        awaited.actions.formUnion(actions)
        awaited.answers.formUnion(answers)
        try journal.setAwaitedActions(awaited)
    }

    /// What `status` says of a calendar shared read-only.
    static let readOnlyNote = "the calendar is read-only for this account: changes made in the vdir stay there"

    /// What a `sync` would do now, and when the pair last synced; changes nothing on either
    /// side, nor in the journal (it plans from a copy).
    static func status(
        journalAt url: URL, local: any CalendarStorage, remote: any CalendarStorage,
        policy: SyncPolicy, lockTimeout: Double = 5
    ) async throws -> SyncStatus {
        let lock = try PairLock.forReading(journal: url, timeout: lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        let (journal, recovery) = try Journal.openRecovering(at: url, dryRun: true)
        let engine = SyncEngine(local: local, remote: remote, journal: journal, policy: policy)
        // Neither side changed since a clean run: nothing is pending, and no item is read.
        let (quiet, known) = try await engine.quietRun(dryRun: true)
        if var quiet {
            quiet.items = []; quiet.broken = []; quiet.duplicates = []
            if let recovery { quiet.skipped.insert(recovery, at: 0) }
            if engine.remoteFoundReadOnly { quiet.notes.append(Self.readOnlyNote) }
            quiet.heldBack = try journal.heldBackWrites().mapValues(\.reason)
            return SyncStatus(
                lastSync: try journal.lastSync(), items: try journal.itemCount(), pending: quiet, massDeletion: nil)
        }
        let (plan, _, l, r) = try await engine.plan(known: known)
        // What a sync would do, and fail on (exit 1): vdir files that do not parse, two items with one UID.
        var pending = SyncEngine.previewReport(plan, local: l, remote: r, strategy: policy.conflict, journal: journal)
        if let recovery { pending.skipped.insert(recovery, at: 0) }
        if engine.remoteFoundReadOnly { pending.notes.append(Self.readOnlyNote) }
        pending.heldBack = try journal.heldBackWrites().mapValues(\.reason)
        return SyncStatus(
            lastSync: try journal.lastSync(), items: try journal.itemCount(), pending: pending,
            massDeletion: await engine.unexplainedMassDeletion(plan).map { "a sync would refuse: \($0.message)" })
    }
}

/// `calgw status`: what is pending, and when the pair last synced.
public struct SyncStatus: Sendable, Codable, Equatable {
    /// ISO 8601, nil before the first sync.
    public var lastSync: String?
    /// How many items the journal knows.
    public var items: Int
    /// What `sync` would do now (created/updated/deleted per side written, conflicts); its
    /// `errors` are what the sync would fail on: vdir files that do not parse (`path:line:
    /// problem`) and two items with one UID.
    public var pending: SyncReport
    /// Set when `sync` would refuse a mass deletion.
    public var massDeletion: String?
}
