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
        get { effects.hookForExecutor }
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

    package init(local: any CalendarStorage, remote: any CalendarStorage, journal: Journal, policy: SyncPolicy = SyncPolicy(),
                prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)? = nil, faultHook: FaultHook? = nil,
                progress: SyncProgressHandler? = nil) {
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
        -> (SyncPlan, [JournalItem], SideSnapshot, SideSnapshot) {
        if let narrowed = try await narrowedPlan(assigningUIDs: assigningUIDs, known: known) { return narrowed }
        let items = try journal.items()
        let localState = try journal.collection(.local), remoteState = try journal.collection(.remote)
        let l: SideSnapshot, r: SideSnapshot
        do {
            var scanner = SideScanner(side: .local, storage: local)
            scanner.setsAsideMissingUIDs = assigningUIDs
            scanner.keepsData = keepingBytes || !items.isEmpty || Self.keepsBytesInFirstSync(local)
            l = try await assigningMissingUIDs(in: scanner.scan(journal: items, token: localState.token,
                                                                outside: try journal.outsideItems(.local), changes: known[.local]))
        } catch let error as RunInterrupted {
            throw error
        } catch {
            throw SyncError.scanFailed(.local, error)
        }
        do {
            var scanner = SideScanner(side: .remote, storage: remote)
            scanner.keepsData = keepingBytes || !items.isEmpty || Self.keepsBytesInFirstSync(remote)
            r = try await scanner.scan(journal: items, token: remoteState.token, outside: try journal.outsideItems(.remote),
                                       changes: known[.remote])
        } catch {
            throw SyncError.scanFailed(.remote, error)
        }
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

    private func runPlanned(dryRun: Bool) async throws -> SyncReport {
        if !dryRun { try await recoverInterruptedRun() }
        let (quiet, known) = try await quietRun(dryRun: dryRun)
        if var quiet {
            // Neither side changed since the last clean run: every item is on the server as it is.
            quiet.settledActions = policy.personsActions
            return quiet
        }
        if !dryRun, let pulled = try await streamedFirstPull() { return pulled }
        let (plan, items, l, r) = try await self.plan(assigningUIDs: !dryRun && policy.direction.writes(.remote), known: known,
                                                      keepingBytes: dryRun)
        if let mass = plan.massDeletion, !policy.allowMassDelete {
            throw SyncError(.massDeletion, mass.message, recovery: mass.recovery)
        }
        // Known once the remote was listed (a calendar shared read-only), before anything is written.
        let policy = effectivePolicy
        var report: SyncReport
        var replans = 0
        let journalRows = plan.rowsActedOn(in: items)
        if dryRun {
            report = Self.previewReport(plan, local: l, remote: r, strategy: policy.conflict, journal: journal)
        } else {
            let executor = Executor(local: local, remote: remote, journal: journal,
                                    resolver: ConflictResolver(strategy: policy.conflict, prompt: prompt),
                                    direction: policy.direction, faultHook: faultHook, progress: progress)
            executor.remoteIsReadOnly = policy.remoteIsReadOnly
            executor.personsActions = policy.personsActions
            executor.answers = policy.answers
            executor.stop = stop
            // Set again once the run ends; a run that ends early leaves none (see `forgetTokens`).
            if plan.actions.contains(where: { Executor.isTransfer($0) || $0.isJournalOnly }) { try journal.forgetTokens() }
            try await executor.execute(plan, journal: journalRows)
            report = executor.report
            report.settledActions = executor.settledPersonsActions(of: plan)
            try noteRefusedWrites(executor.writesRefused)
            for side in [local, remote] { report.notes += side.capabilities.noting?.takeNotes() ?? [] }
            replans = executor.replans
            try await syncMetadata(into: &report)
        }
        try noteReadOnlyCalendar(in: &report, dryRun: dryRun)
        if !dryRun { Self.describeProblems(plan, local: l, remote: r, into: &report) }
        if !dryRun {
            for (side, snapshot) in [(Side.local, l), (.remote, r)] {
                try journal.replaceOutsideItems(side, with: plan.outsideItems[side] ?? [])
                var state = try journal.collection(side)
                // The token was read before this run's own writes, so it cannot vouch for them: a
                // vdir's token (a hash of its listing) comes back when the folder is put back as
                // it was, and a server's changes since it (Radicale and Xandikos diff two states)
                // leave out an item this run created that someone deleted before the next run.
                // A server written to is listed in full next time; a vdir keeps the token of the
                // listing the journal records (`tokenOfJournal`).
                let wrote = report.created[side] + report.updated[side] + report.deleted[side] > 0 || !report.conflicts.isEmpty
                let mirrors = Self.journalMirrors(side, snapshot: snapshot, plan: plan, report: report, replans: replans,
                                                  journal: journalRows)
                state.token = !mirrors ? nil : wrote ? try await tokenOfJournal(side) : snapshot.token
                try journal.setCollection(side, state)
            }
            if report.errors.isEmpty { try journal.setLastSync() }
            try journal.pruneIntents()
        }
        return report
    }

    /// What a run would do, as `sync --dry-run` and `status` both say it: the plan's writes
    /// item by item, and what it would skip or fail on (``describeProblems(_:local:remote:into:)``).
    static func previewReport(_ plan: SyncPlan, local l: SideSnapshot, remote r: SideSnapshot, strategy: ConflictStrategy,
                              journal: Journal) -> SyncReport {
        var report = preview(plan, strategy: strategy)
        PendingItems.describe(plan, local: l, remote: r, strategy: strategy, journal: journal, into: &report)
        describeProblems(plan, local: l, remote: r, into: &report)
        return report
    }

    /// What a run skips, fails on or leaves out, the one description a run, a dry run and
    /// `status` all give: items that do not parse (a vdir file broken by a hand edit is an
    /// error at its line; anything else is skipped), two items with one UID, and the vdir's
    /// events a first sync leaves beyond the sync window.
    static func describeProblems(_ plan: SyncPlan, local l: SideSnapshot, remote r: SideSnapshot, into report: inout SyncReport) {
        for (side, hrefs) in plan.unparseable.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            // The local side's hand-edit problems are errors with their line (below), not skips.
            report.skipped += hrefs.filter { side == .remote || l.problems[$0] == nil }
                .map { "\($0) on the \(side.rawValue) side does not parse; left alone" }
        }
        if plan.newLocalOutsideWindow > 0 {
            let count = plan.newLocalOutsideWindow
            report.notes.append("\(count) event\(count == 1 ? "" : "s") in the vdir lie\(count == 1 ? "s" : "") outside the sync window and "
                                + "\(count == 1 ? "is" : "are") not uploaded; each goes up once it enters the window, or when you change it")
        }
        reportHandEditProblems(l.problems, into: &report)
        reportDuplicateUIDs(plan, local: l, remote: r, into: &report)
    }

    /// A vdir file broken by a hand edit is an error of the run (exit 1 once the rest is done),
    /// reported at its line with a hint, instead of a skipped item.
    /// `status` lists them with what it skips (`asErrors` false).
    static func reportHandEditProblems(_ problems: [ItemHref: String], into report: inout SyncReport, asErrors: Bool = true) {
        let located = problems.values.sorted()
        report.skipped.removeAll { line in located.contains { line.hasPrefix($0) } }
        let lines = located.map { "\($0) (hint: \(HandEditCheck.hint))" }
        if asErrors { report.errors += lines.map { ReportedError($0) } } else { report.skipped += lines }
    }

    /// Two items of a side with one UID (a file copied from another event) are an error of the
    /// run, like a broken hand edit: both places are named, neither is synced, and the rest is.
    static func reportDuplicateUIDs(_ plan: SyncPlan, local: SideSnapshot, remote: SideSnapshot, into report: inout SyncReport) {
        var shared: Set<ItemKey> = []
        for snapshot in [local, remote] {
            for (key, items) in Dictionary(grouping: snapshot.items, by: \.key) where items.count > 1 { shared.insert(key) }
        }
        guard !shared.isEmpty else { return }
        for case .skip(let key, reason: let reason) in plan.actions where shared.contains(key) {
            if let index = report.skipped.firstIndex(of: reason) { report.skipped.remove(at: index) }
            report.addError(reason)
        }
    }

    /// True when the journal now accounts for everything `side` held at its scan, so that
    /// "unchanged since the token" can be answered from the journal next time. Writes this
    /// run made are fine (the next listing reports them, with the etags the journal has);
    /// what is not: items skipped, unparseable or unresolved, and writes
    /// left pending for the other side (this side then holds a change the journal lacks), and
    /// writes pending here for an item this side moved. `rows`: the journal's rows of the
    /// items the plan acts on.
    static func journalMirrors(_ side: Side, snapshot: SideSnapshot, plan: SyncPlan, report: SyncReport, replans: Int,
                               journal rows: [ItemKey: JournalItem]) -> Bool {
        guard report.errors.isEmpty, replans == 0, snapshot.unparseable.isEmpty else { return false }
        guard !report.conflicts.contains(where: { $0.resolution == .unresolved }) else { return false }
        for action in plan.actions {
            switch action {
            case .skip: return false
            case .pending(let inner):
                if inner.writes == side.other || inner.writes == nil { return false }
                // A known item to be recreated here (modification beat deletion): the journal
                // still says this side has it.
                if case .create(side, let source) = inner, rows[source.key] != nil { return false }
                // An item this side moved (a file renamed) that waits for a write here: the
                // journal still has it where it was.
                switch inner {
                case .delete(side, let target), .update(side, let target, _):
                    if let row = rows[target.key], row.record(side).href != target.href || row.record(side).etag != target.etag { return false }
                default: break
                }
            default: break
            }
        }
        return true
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
            case .conflict(let l, _, _): report.conflicts.append(.init(uid: l.key.value, resolution: ConflictOutcome(strategy)))
            case .pending(let inner):
                if let side = inner.writes { report.pending[side] += 1 }
                if case .conflict(let l, _, _) = inner { report.conflicts.append(.init(uid: l.key.value, resolution: .pending)) }
            case .skip(_, let reason): report.skipped.append(reason)
            case .record, .forget: break
            }
        }
        return report
    }
}
