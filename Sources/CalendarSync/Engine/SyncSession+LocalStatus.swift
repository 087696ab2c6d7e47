import Foundation

extension SyncSession {
    /// What is pending on the local side alone: `status` when the remote side cannot be read
    /// (server down, credentials refused).
    ///
    /// The remote side is taken to be as the journal last saw it, so the result holds the local
    /// changes a sync would send (created, updated and deleted on the remote side) and nothing
    /// about the server's own changes. Nothing is written, and an interrupted run is left for
    /// the next sync to finish.
    /// - Parameters:
    ///   - url: the pair's journal file.
    ///   - local: the vdir.
    ///   - policy: the pair's policy (window, conflict strategy).
    /// - Returns: the status; its `pending` counts writes to the remote side only.
    /// - Throws: `JournalError.locked` when another run holds the pair; `SyncError` when the
    ///   local side cannot be read either.
    static func localStatus(
        journalAt url: URL, local: any CalendarStorage, policy: SyncPolicy,
        lockTimeout: Double = 5
    ) async throws -> SyncStatus {
        let lock = try PairLock.forReading(journal: url, timeout: lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        let journal = try Journal.openRecovering(at: url, dryRun: true).0
        var items = try journal.items()
        var l: SideSnapshot
        do {
            l = try await SideScanner(side: .local, storage: local).scan(
                journal: items, token: try journal.collection(.local).token,
                outside: try journal.outsideItems(.local))
        } catch {
            throw SyncError.scanFailed(.local, error)
        }
        var r = SideSnapshot(items: asJournalSaw(.remote, items) + (try journal.outsideItems(.remote)))
        try SyncEngine.settlingPendingHashes(&items, local: &l, remote: &r, journal: journal)
        let plan = Planner.plan(local: l, remote: r, journal: items, policy: policy)
        let pending = SyncEngine.previewReport(plan, local: l, remote: r, strategy: policy.conflict, journal: journal)
        return SyncStatus(
            lastSync: try journal.lastSync(), items: items.count, pending: pending,
            massDeletion: plan.massDeletion.map { "a sync would refuse: \($0.message)" })
    }

    /// A side's items as the journal recorded them at the last sync.
    static func asJournalSaw(_ side: Side, _ items: [JournalItem]) -> [SideItem] {
        items.map { j in
            let r = j.record(side)
            return SideItem(
                key: j.key, href: r.href, etag: r.etag, hash: r.hash, lastModified: j.lastModified,
                sequence: j.sequence, span: j.span)
        }
    }
}
