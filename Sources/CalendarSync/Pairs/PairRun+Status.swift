import Foundation

extension PairRun {
    /// What a sync would do now; writes nothing on either side, not even the journal.
    ///
    /// When the server cannot be read (down, or refusing the credentials) the local changes
    /// waiting to be sent are still counted, with ``PairStatus/unreadable`` set to `remote`;
    /// the failure itself is in ``PairStatus/failure``, never thrown.
    public func status() async -> PairStatus {
        var status = await statusOfCalendars()
        // Meeting messages the mail command did not take, waiting for the next run.
        status.pending.notes += MailQueue(pair: pair).statusLines
        return status
    }

    private func statusOfCalendars() async -> PairStatus {
        var status = PairStatus()
        do {
            if pair.isAccount {
                var dryRun = self
                dryRun.options.dryRun = true
                dryRun.options.direction = .both
                let layout = AccountLayout(pair: pair, root: try pair.localFolder(for: "a pair with collections"))
                let report = try await AccountRun(run: dryRun).run().report
                status.pending = report
                status.pending.collections = nil
                status.collections = report.collections
                // The calendars' journals: items known in all, and the latest of their syncs.
                for name in (report.collections ?? [:]).keys {
                    guard let summary = try? Journal.summary(at: layout.journal(name)) else { continue }
                    status.items += summary.items
                    if let last = summary.lastSync, last > (status.lastSync ?? "") { status.lastSync = last }
                }
                return status
            }
            let local = try pair.storage(pair.local), remote = try pair.storage(pair.remote)
            let found = try await SyncSession.status(
                journalAt: pair.journal, local: local, remote: remote, policy: policy)
            status.lastSync = found.lastSync
            status.items = found.items
            status.pending = found.pending
            if pair.remote.isReadOnly { status.pending.nameReadOnlyResolutions(policy.conflict) }
            status.massDeletion = found.massDeletion
        } catch {
            status.failure = error
            status.unreadable = .both
            // What the journal last recorded stays known whatever cannot be read now.
            if !pair.isAccount, let summary = try? Journal.summary(at: pair.journal) {
                status.lastSync = summary.lastSync
                status.items = summary.items
            }
            if let broken = Self.brokenSingleFile(error) {
                status.unreadable = .local
                status.pending.broken = [broken]
            }
            if !pair.isAccount, let e = error as? SyncError, e.code == .scanFailed || e.code == .authenticationFailed,
                let storage = try? pair.storage(pair.local),
                let local = try? await SyncSession.localStatus(journalAt: pair.journal, local: storage, policy: policy)
            {
                status.unreadable = .remote
                status.lastSync = local.lastSync
                status.items = local.items
                status.pending = local.pending
                status.pending.errors = []
                status.pending.conflicts = []
                status.massDeletion = local.massDeletion
            }
        }
        return status
    }

    /// The place and problem of a single-file calendar that does not parse, from the error
    /// its scan stopped with; nil for any other error.
    static func brokenSingleFile(_ error: any Error) -> BrokenFile? {
        guard let sync = error as? SyncError, sync.code == .scanFailed, let file = sync.cause as? SingleFileError,
            file.code == .invalid
        else { return nil }
        return BrokenFile(file.message)
    }
}
