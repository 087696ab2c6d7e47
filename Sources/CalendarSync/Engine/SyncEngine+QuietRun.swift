import Foundation

extension SyncEngine {
    /// The run when neither side changed since the tokens the journal holds and no write is
    /// pending: nothing to plan, so the journal's items are never read. A no-op of a
    /// 100,000-event pair costs one listing of the folder and one request, not a load and a
    /// plan of 100,000 rows.
    ///
    /// - Returns: the (empty) report, or nil and the changes each side reported, for the full
    ///   run to reuse instead of asking again.
    func quietRun(dryRun: Bool) async throws -> (report: SyncReport?, known: [Side: StorageChanges]) {
        // A window moves with time: items enter it without any side changing.
        guard policy.window == nil, try journal.pendingIntents().isEmpty,
              let localToken = try journal.collection(.local).token,
              let remoteToken = try journal.collection(.remote).token else { return (nil, [:]) }
        var known: [Side: StorageChanges] = [:]
        for (side, token) in [(Side.local, localToken), (.remote, remoteToken)] {
            let changes: StorageChanges
            do { changes = try await storage(side).changes(since: token) } catch { throw SyncError.scanFailed(side, error) }
            known[side] = changes
            guard case .unchanged = changes else { return (nil, known) }
        }
        var report = SyncReport()
        report.dryRun = dryRun
        if !dryRun {
            await syncMetadata(into: &report)
            if report.errors.isEmpty { try journal.setLastSync() }
        }
        return (report, known)
    }

    func storage(_ side: Side) -> any CalendarStorage { side == .local ? local : remote }
}
