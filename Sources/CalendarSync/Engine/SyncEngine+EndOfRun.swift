import Foundation

/// What a run hands to its end: the last plan it executed, the snapshots that plan was made
/// from, and what the run saw that no plan holds.
struct RunEnd {
    var plan: SyncPlan
    var local: SideSnapshot
    var remote: SideSnapshot
    /// The journal's rows of the items the plan acts on (``SyncPlan/rowsActedOn(in:)``).
    var journalRows: [ItemKey: JournalItem] = [:]
    /// Sides whose items the run saw outside the plan and did not sync (a streamed pull's
    /// skips): the journal cannot vouch for them.
    var unaccounted: Set<Side> = []
    /// Errors of the run outside the plan (a UID a server sent twice across a stream's batches).
    var errors: [String] = []

    func snapshot(_ side: Side) -> SideSnapshot { side == .local ? local : remote }
}

extension SyncEngine {
    /// The one end of every run that wrote: the report (the executor's, with what storages
    /// noted, the calendar's name and colour, what the run skipped or failed on), then the
    /// journal (items outside the window, each side's change token, the time of the last clean
    /// run) — in this order, so that a run stopped before its end leaves no token vouching for
    /// writes it has not accounted for.
    func endRun(_ executor: Executor, _ end: RunEnd) async throws -> SyncReport {
        var report = executor.report
        report.settledActions = executor.settledPersonsActions(of: end.plan)
        try noteRefusedWrites(executor.writesRefused)
        for side in [local, remote] {
            report.notes += side.capabilities.noting?.takeNotes() ?? []
            report.deletionScheduling.merge(side.capabilities.noting?.takeDeletionScheduling() ?? [:]) { _, new in new }
        }
        try await syncMetadata(into: &report)
        try noteReadOnlyCalendar(in: &report, dryRun: false)
        Self.describeProblems(end.plan, local: end.local, remote: end.remote, into: &report)
        report.errors += end.errors.map { ReportedError($0) }
        for side in Side.allCases {
            try journal.replaceOutsideItems(side, with: end.plan.outsideItems[side] ?? [])
            try await recordToken(side, end: end, report: report, replans: executor.replans)
        }
        if report.errors.isEmpty { try journal.setLastSync() }
        try journal.pruneIntents()
        return report
    }

    /// Keeps the token `side` may be asked "what changed since" next time, or none.
    ///
    /// The token was read before this run's own writes, so it cannot vouch for them: a vdir's
    /// token (a hash of its listing) comes back when the folder is put back as it was, and a
    /// server's changes since it (Radicale and Xandikos diff two states) leave out an item this
    /// run created that someone deleted before the next run. A server written to is listed in
    /// full next time; a side listed on this machine keeps the token of the listing the journal
    /// records (`tokenOfJournal`).
    private func recordToken(_ side: Side, end: RunEnd, report: SyncReport, replans: Int) async throws {
        let snapshot = end.snapshot(side)
        var state = try journal.collection(side)
        let wrote = report.created[side] + report.updated[side] + report.deleted[side] > 0 || !report.conflicts.isEmpty
        let mirrors =
            !end.unaccounted.contains(side)
            && Self.journalMirrors(
                side, snapshot: snapshot, plan: end.plan, report: report, replans: replans, journal: end.journalRows)
        state.token = !mirrors ? nil : wrote ? try await tokenOfJournal(side) : snapshot.token
        try journal.setCollection(side, state)
    }

    /// True when the journal now accounts for everything `side` held at its scan, so that
    /// "unchanged since the token" can be answered from the journal next time. Writes this
    /// run made are fine (the next listing reports them, with the etags the journal has);
    /// what is not: items skipped, unparseable or unresolved, and writes
    /// left pending for the other side (this side then holds a change the journal lacks), and
    /// writes pending here for an item this side moved. `rows`: the journal's rows of the
    /// items the plan acts on.
    static func journalMirrors(
        _ side: Side, snapshot: SideSnapshot, plan: SyncPlan, report: SyncReport, replans: Int,
        journal rows: [ItemKey: JournalItem]
    ) -> Bool {
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
                    if let row = rows[target.key],
                        row.record(side).href != target.href || row.record(side).etag != target.etag
                    {
                        return false
                    }
                default: break
                }
            default: break
            }
        }
        return true
    }
}
