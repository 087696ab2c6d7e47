import Foundation

/// One pair's sync run: recover what an interrupted run left, scan both sides, plan, check
/// the safety rails, execute, remember.
///
/// ```swift
/// let engine = SyncEngine(local: VDirStorage(url: vdir), remote: calendar, journal: try Journal.open(at: file),
///                         policy: SyncPolicy(direction: .both, conflict: .merge))
/// let report = try await engine.run()
/// print(report.summary)
/// ```
///
/// Package-visible (with its initializer and `run`) for the package's test support, which runs
/// the engine between in-memory storages (`SyncHarness`); clients run a pair through ``PairRun``.
package struct SyncEngine: Sendable {
    var local: any CalendarStorage
    var remote: any CalendarStorage
    var journal: Journal
    var policy: SyncPolicy
    /// Asked for each conflict when the strategy is `ask` (nil: no terminal, left unresolved).
    var prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)?
    /// Test-only: called after every side effect, numbered across the whole run.
    var faultHook: FaultHook? {
        get { effects.hook }
        set { effects = SideEffects(newValue) }
    }
    /// The run's count of side effects (see ``SideEffects``).
    private(set) var effects: SideEffects
    /// Told the transfer's total and each finished write (nil: nobody is watching).
    var progress: SyncProgressHandler?
    /// Where the run is asked to stop early (``StopGate``); nil: never.
    var stop: StopGate?
    /// Plans from the items that moved since the journal's last look, not from every row
    /// (see `narrowedPlan`); off only in tests that compare the two.
    var plansFromChanges = true

    package init(
        local: any CalendarStorage, remote: any CalendarStorage, journal: Journal, policy: SyncPolicy = SyncPolicy(),
        prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)? = nil, faultHook: FaultHook? = nil,
        progress: SyncProgressHandler? = nil
    ) {
        self.local = local
        self.remote = remote
        self.journal = journal
        self.policy = policy
        self.prompt = prompt
        self.effects = SideEffects(faultHook)
        self.progress = progress
    }

    /// Scans both sides and plans: from the items that moved where it can, else from every
    /// journal row. The journal rows returned are those the plan was made from. Without
    /// `assigningUIDs` it writes nothing on either side nor in the journal (a real run first
    /// settles an interrupted one: ``recoverInterruptedRun()``).
    /// - Parameter assigningUIDs: first write a UID into each new vdir file without one, each
    ///   write recorded as an intent like any other (a real run that may upload them).
    /// - Parameter known: changes a side already reported in this run (see `quietRun`).
    /// - Parameter keepingBytes: the snapshots keep the bytes of every item read. Without it a
    ///   first sync (an empty journal: every item is read) keeps what each vdir item is, not
    ///   its bytes (see `keepsBytesInFirstSync`).
    func plan(assigningUIDs: Bool = false, known: [Side: StorageChanges] = [:], keepingBytes: Bool = true) async throws
        -> (SyncPlan, [JournalItem], SideSnapshot, SideSnapshot)
    {
        if let narrowed = try await narrowedPlan(assigningUIDs: assigningUIDs, known: known) { return narrowed }
        var items = try journal.items()
        let localState = try journal.collection(.local), remoteState = try journal.collection(.remote)
        var l: SideSnapshot, r: SideSnapshot
        do {
            var scanner = SideScanner(side: .local, storage: local)
            scanner.setsAsideMissingUIDs = assigningUIDs
            scanner.keepsData = keepingBytes || !items.isEmpty || Self.keepsBytesInFirstSync(local)
            l = try await assigningMissingUIDs(
                in: scanner.scan(
                    journal: items, token: localState.token,
                    outside: try journal.outsideItems(.local), changes: known[.local]))
        } catch let error as RunInterrupted {
            throw error
        } catch {
            throw SyncError.scanFailed(.local, error)
        }
        do {
            var scanner = SideScanner(side: .remote, storage: remote)
            scanner.keepsData = keepingBytes || !items.isEmpty || Self.keepsBytesInFirstSync(remote)
            r = try await scanner.scan(
                journal: items, token: remoteState.token, outside: try journal.outsideItems(.remote),
                changes: known[.remote])
        } catch {
            throw SyncError.scanFailed(.remote, error)
        }
        try Self.settlingPendingHashes(&items, local: &l, remote: &r, journal: journal)
        return (Planner.plan(local: l, remote: r, journal: items, policy: effectivePolicy), items, l, r)
    }

    /// True when a first sync keeps the bytes of what it reads from `storage`: all but a vdir's,
    /// so that memory does not grow with the calendar. The executor reads again the files it
    /// copies or records, a batch at a time, which costs little where downloading a server's
    /// items twice would cost much.
    static func keepsBytesInFirstSync(_ storage: any CalendarStorage) -> Bool { storage.capabilities.fileBacked == nil }

    /// Runs the pair.
    /// - Parameter dryRun: plan and report only.
    /// - Throws: `SyncError.massDeletion` when a side was emptied, or more than half of the
    ///   items would be deleted, and mass deletion is not allowed; scan failures. Failures of
    ///   single items go to the report instead.
    package func run(dryRun: Bool = false) async throws -> SyncReport {
        guard !dryRun else { return try await runPlanned(dryRun: true) }
        return try await applyingScheduleInbox(after: try await runWithPersonsActions())
    }

    /// A run that sends the person's actions (this command's and those a run before could not
    /// send) as such.
    private func runWithPersonsActions() async throws -> SyncReport {
        // The person's own command on an item held back asks to send it again.
        if !policy.personsActions.isEmpty {
            let held = try journal.heldBackWrites()
            if held.keys.contains(where: policy.personsActions.contains) {
                try journal.setHeldBackWrites(held.filter { !policy.personsActions.contains($0.key) })
            }
        }
        // The person's actions a run before could not send are this run's to send as such.
        var awaited = policy.schedules ? try journal.awaitedActions() : AwaitedActions()
        awaited.actions.formUnion(policy.personsActions)
        awaited.answers.formUnion(policy.answers)
        guard !awaited.isEmpty else { return try await runPlanned(dryRun: false) }
        // Kept before anything is written: a run that fails or is stopped leaves them to the next.
        try journal.setAwaitedActions(awaited)
        var engine = self
        engine.policy.personsActions = awaited.actions
        engine.policy.answers = awaited.answers
        let report = try await engine.runPlanned(dryRun: false)
        try journal.setAwaitedActions(awaited.removing(report.settledActions))
        return report
    }

    func runPlanned(dryRun: Bool) async throws -> SyncReport {
        if !dryRun { try await recoverInterruptedRun() }
        let (quiet, known) = try await quietRun(dryRun: dryRun)
        if var quiet {
            // Neither side changed since the last clean run: every item is on the server as it is.
            quiet.settledActions = policy.personsActions
            return quiet
        }
        if dryRun { return try await previewRun(known: known) }
        if let pulled = try await streamedFirstPull() { return pulled }
        return try await fullRun(known: known)
    }

    /// Plans from both sides (or from what moved since the last run) and executes the plan.
    private func fullRun(known: [Side: StorageChanges]) async throws -> SyncReport {
        let (planned, items, l, r) = try await self.plan(
            assigningUIDs: policy.direction.writes(.remote), known: known, keepingBytes: false)
        let (plan, holding) = try holdingBack(planned)
        try await refuseMassDeletion(plan)
        let journalRows = plan.rowsActedOn(in: items)
        let executor = makeExecutor()
        // Set again once the run ends; a run that ends early leaves none (see `forgetTokens`).
        if plan.actions.contains(where: { Executor.isTransfer($0) || $0.isJournalOnly }) { try journal.forgetTokens() }
        try await executor.execute(plan, journal: journalRows)
        var end = RunEnd(plan: plan, local: l, remote: r)
        end.journalRows = journalRows
        var report = try await endRun(executor, end)
        try keepHeldBack(holding, failed: executor.heldBack, into: &report)
        return report
    }

    /// What a run would do, writing nothing anywhere.
    private func previewRun(known: [Side: StorageChanges]) async throws -> SyncReport {
        let (planned, _, l, r) = try await self.plan(known: known)
        let plan = try holdingBack(planned).0
        try await refuseMassDeletion(plan)
        // Known once the remote was listed (a calendar shared read-only).
        var report = Self.previewReport(plan, local: l, remote: r, strategy: effectivePolicy.conflict, journal: journal)
        try noteReadOnlyCalendar(in: &report, dryRun: true)
        return report
    }

    /// - Throws: `SyncError.massDeletion` when the plan deletes too much and the run may not,
    ///   beyond the meetings their organizers cancelled (``cancelledByTheirOrganizers(_:)``).
    private func refuseMassDeletion(_ plan: SyncPlan) async throws {
        guard !policy.allowMassDelete, let mass = await unexplainedMassDeletion(plan) else { return }
        throw SyncError(.massDeletion, mass.message, recovery: mass.recovery)
    }

    /// The plan's mass deletion, unless the meetings their organizers cancelled
    /// (``cancelledByTheirOrganizers(_:)``) and the finished tasks flushed
    /// (``finishedTasks(_:)``) account for it: what a sync refuses, and `status` says it would.
    func unexplainedMassDeletion(_ plan: SyncPlan) async -> SyncPlan.MassDeletion? {
        guard let mass = plan.massDeletion else { return nil }
        let left = mass.deletions - (await cancelledByTheirOrganizers(plan)) - finishedTasks(plan)
        let refused = mass.emptySide != nil ? left > 0 : left * 2 > mass.known
        return refused ? mass : nil
    }

    /// How many of the plan's deletions are of tasks that were done or cancelled when both
    /// sides last agreed (``TaskCompletion``): flushing finished tasks (todoman's `todo flush`)
    /// is routine and loses nothing anyone still works on.
    private func finishedTasks(_ plan: SyncPlan) -> Int {
        let deleted = plan.actions.compactMap { action -> ItemKey? in
            if case .delete(_, let target) = action { target.key } else { nil }
        }
        var finished = 0
        try? journal.forEachBase(of: deleted) { _, base in
            if TaskCompletion.isFinished(base) { finished += 1 }
        }
        return finished
    }

    /// How many of the plan's deletions in the vdir are of meetings whose organizer cancelled
    /// them: the server deleted the account's copy (DAViCal does, for a meeting its organizer
    /// deleted) and a CANCEL of the whole meeting waits in the account's schedule Inbox. An
    /// attendee whose every invitation was cancelled would otherwise find his calendar emptied
    /// and the run stopped. None when the Inbox cannot be read.
    private func cancelledByTheirOrganizers(_ plan: SyncPlan) async -> Int {
        guard let inbox = remote.capabilities.scheduleInbox else { return 0 }
        let keys = plan.actions.compactMap { action -> String? in
            if case .delete(.local, let target) = action { target.key.value } else { nil }
        }
        guard !keys.isEmpty, let cancelled = try? await inbox.cancelledMeetings(among: Set(keys)) else { return 0 }
        return keys.filter(cancelled.contains).count
    }

    /// The executor of this run's plans, told everything once (see ``ExecutorConfiguration``):
    /// every kind of run executes through one made here. The policy is the effective one,
    /// known once the remote was listed (a calendar shared read-only is pulled only).
    func makeExecutor() -> Executor {
        let policy = effectivePolicy
        return Executor(
            ExecutorConfiguration(
                local: local, remote: remote, journal: journal,
                resolver: ConflictResolver(strategy: policy.conflict, prompt: prompt),
                direction: policy.direction, effects: effects, progress: progress, stop: stop,
                remoteIsReadOnly: policy.remoteIsReadOnly, personsActions: policy.personsActions,
                answers: policy.answers))
    }

    /// What a run would do, as `sync --dry-run` and `status` both say it: the plan's writes
    /// item by item, and what it would skip or fail on (``describeProblems(_:local:remote:into:)``).
    static func previewReport(
        _ plan: SyncPlan, local l: SideSnapshot, remote r: SideSnapshot, strategy: ConflictStrategy,
        journal: Journal
    ) -> SyncReport {
        var report = preview(plan, strategy: strategy)
        PendingItems.describe(plan, local: l, remote: r, strategy: strategy, journal: journal, into: &report)
        describeProblems(plan, local: l, remote: r, into: &report)
        return report
    }

    /// What a run skips, fails on or leaves out beyond its plan's skips (``SkipReason``), the
    /// one description a run, a dry run and `status` all give: items that do not parse (a vdir
    /// file broken by a hand edit is an error at its line; anything else is skipped), and the
    /// vdir's events a first sync leaves beyond the sync window.
    static func describeProblems(
        _ plan: SyncPlan, local l: SideSnapshot, remote r: SideSnapshot, into report: inout SyncReport
    ) {
        for (side, hrefs) in plan.unparseable.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            // The local side's hand-edit problems are errors with their line (below), not skips.
            report.skipped += hrefs.filter { side == .remote || l.problems[$0] == nil }
                .map { "\($0) on the \(side.rawValue) side does not parse; left alone" }
        }
        if plan.newLocalOutsideWindow > 0 {
            let count = plan.newLocalOutsideWindow
            report.notes.append(
                "\(count) event\(count == 1 ? "" : "s") in the vdir lie\(count == 1 ? "s" : "") outside the sync window and "
                    + "\(count == 1 ? "is" : "are") not uploaded; each goes up once it enters the window, or when you change it"
            )
        }
        // Every hand-edit problem, at its line, whether the plan skipped its item (a file the
        // journal knows) or could not read it at all (a new one).
        report.errors += l.problems.values.sorted().map { ReportedError("\($0) (hint: \(HandEditCheck.hint))") }
    }

    /// What a plan would do, as a report.
    static func preview(_ plan: SyncPlan, strategy: ConflictStrategy) -> SyncReport {
        var report = SyncReport()
        report.dryRun = true
        for action in plan.actions {
            switch action {
            case .create(let side, _): report.created[side] += 1
            case .update(let side, _, _): report.updated[side] += 1
            case .delete(let side, _): report.deleted[side] += 1
            case .conflict(let l, _, _):
                report.conflicts.append(.init(uid: l.key.value, resolution: ConflictOutcome(strategy)))
            case .pending(let inner):
                if let side = inner.writes { report.pending[side] += 1 }
                if case .conflict(let l, _, _) = inner {
                    report.conflicts.append(.init(uid: l.key.value, resolution: .pending))
                }
            case .skip(_, let reason): report.add(reason)
            case .record, .forget: break
            }
        }
        return report
    }
}
