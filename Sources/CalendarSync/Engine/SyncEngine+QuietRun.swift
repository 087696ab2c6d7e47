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
        // A window moves with time: items enter it without any side changing. Items an earlier
        // windowed run left outside its window are this run's to plan, changed or not.
        guard policy.window == nil, try journal.pendingIntents().isEmpty, try !journal.hasOutsideItems(),
            let localToken = try journal.collection(.local).token,
            let remoteToken = try journal.collection(.remote).token
        else { return (nil, [:]) }
        // Whatever a side says is kept for the full run, so no side is asked twice. A server is
        // asked while the folder is listed, so its answer costs no time of its own; a remote
        // listed on this machine (a vdir, a file) is listed after the local side, and only when
        // that is unchanged, so that a run holds one listing at a time.
        var known: [Side: StorageChanges] = [:]
        let answers: [(Side, Result<StorageChanges, any Error>)]
        if remote.capabilities.listingToken != nil {
            let localAnswer = await changes(.local, since: localToken)
            if case .success(.unchanged) = localAnswer {
                answers = [(.local, localAnswer), (.remote, await changes(.remote, since: remoteToken))]
            } else {
                answers = [(.local, localAnswer)]
            }
        } else {
            async let localChanges = changes(.local, since: localToken)
            async let remoteChanges = changes(.remote, since: remoteToken)
            answers = [(.local, await localChanges), (.remote, await remoteChanges)]
        }
        for (side, answer) in answers {
            switch answer {
            case .success(let changes): known[side] = changes
            case .failure(let error as RunInterrupted): throw error
            case .failure(let error): throw SyncError.scanFailed(side, error)
            }
        }
        guard case .unchanged? = known[.local], case .unchanged? = known[.remote] else { return (nil, known) }
        var report = SyncReport()
        report.dryRun = dryRun
        progress?(SyncProgress(total: 0))  // as any run with nothing to transfer
        if !dryRun {
            try await syncMetadata(into: &report)
            if report.errors.isEmpty { try journal.setLastSync() }
        }
        return (report, known)
    }

    /// What `side` reports since `token`, or why it could not say.
    private func changes(_ side: Side, since token: ChangeToken) async -> Result<StorageChanges, any Error> {
        do { return .success(try await storage(side).changes(since: token)) } catch { return .failure(error) }
    }

    func storage(_ side: Side) -> any CalendarStorage { side == .local ? local : remote }

    /// The token to keep for `side` after a run that wrote to it, when the journal mirrors it:
    /// for a vdir (either side: a `file://` remote is one), the token of the listing the
    /// journal records (every file by the signature calgw's write left); for a single file,
    /// its signature while it holds that listing. It vouches for this run's writes without a
    /// trust in timing: a file touched after calgw wrote it, or one added meanwhile, changes
    /// the next listing's token, and that run is a full one. A server's token cannot be made
    /// so (nil: list it next time).
    func tokenOfJournal(_ side: Side) async throws -> ChangeToken? {
        guard let vouching = storage(side).capabilities.listingToken else { return nil }
        return try await vouching.token(forJournal: journal, side: side)
    }
}
