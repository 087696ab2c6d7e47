import Foundation

extension SyncEngine {
    /// A pair's first sync with a server that can stream its items: each batch of remote items
    /// is written into the vdir as soon as it is read, while later ones are still arriving, so
    /// memory holds a few batches, not the collection, and writing overlaps the transfer.
    ///
    /// The journal is empty, so every remote item whose key no local file has is a plain
    /// create on the local side, whatever the rest holds: those are planned and executed batch
    /// by batch (``FirstPullStream``, with the usual intents, so an interruption is recovered as
    /// any other). A remote item equal to the local file of its key is recorded with its batch
    /// (a takeover of a folder another tool synced is mostly these). One that differs is set
    /// aside, without its bytes, and planned with the local side once the read ended, as a full
    /// run would (a conflict); local items the server lacks are uploaded then too — the
    /// person's actions among them as such, by the run's one executor — when the connection is
    /// free again. The local side is kept without its bytes: memory holds what each item is and
    /// a few batches, whatever the calendar's size. The run ends as every run does (``endRun(_:_:)``).
    ///
    /// - Returns: nil when the run is not a first pull this path can take (the full run follows).
    func streamedFirstPull() async throws -> SyncReport? {
        guard let streaming = try firstPullSource() else { return nil }
        let (l, items) = try await scanLocalForFirstPull()
        let executor = makeExecutor()
        let stream = FirstPullStream(local: l, items: items, executor: executor, policy: policy)
        // The journal is empty: its item rows are appended while the server's items stream in,
        // and indexed once they are all in (an interrupted run leaves that to the next open).
        try journal.beginBulkLoad()
        let token: ChangeToken?
        do {
            token = try await stream.pull(from: streaming)
            try journal.endBulkLoad()
        } catch let error as RunInterrupted {
            // As a crash would: nothing more is written, the rows are indexed by the next open.
            await stream.abandon()
            throw error
        } catch let error as RunStopped {
            // Asked to stop: the batches written so far are committed, and the rows indexed.
            await stream.abandon()
            try journal.endBulkLoad()
            throw error
        } catch {
            // The items read before the answer broke off are kept: the batches written so far
            // are in the journal, whole, and the one still being parsed is written now. The
            // rerun lists the server and fetches only what is missing.
            try await stream.keepWhatArrived()
            try journal.endBulkLoad()
            throw SyncError.scanFailed(.remote, error)
        }
        return try await finishFirstPull(stream, local: l, items: items, token: token, executor: executor)
    }

    /// The remote side's streaming, when this run is a first pull that can stream: both sides
    /// new to the journal, nothing pending, no window, the vdir written to.
    private func firstPullSource() throws -> (any StreamingFetchingStorage)? {
        guard policy.window == nil, policy.itemTypes == nil, policy.direction.writes(.local),
            let streaming = remote.capabilities.streamingFetching,
            try journal.isEmpty(), try journal.pendingIntents().isEmpty,
            try journal.outsideItems(.local).isEmpty, try journal.outsideItems(.remote).isEmpty,
            try journal.collection(.local).token == nil, try journal.collection(.remote).token == nil
        else { return nil }
        return streaming
    }

    /// The vdir as a first pull matches the server's items against it: what each item is and a
    /// digest of its bytes, not the bytes; UIDs given to files without one. The items are
    /// packed (``PackedItems``), the snapshot holds the rest.
    private func scanLocalForFirstPull() async throws -> (SideSnapshot, PackedItems) {
        do {
            var scanner = SideScanner(side: .local, storage: local)
            scanner.setsAsideMissingUIDs = policy.direction.writes(.remote)
            scanner.keepsData = Self.keepsBytesInFirstSync(local)
            scanner.digestsBytes = true
            let (scanned, packed) = try await scanner.scanPacked()
            var items = packed
            var snapshot = try await assigningMissingUIDs(in: scanned)
            for item in snapshot.items { items.append(item) }  // the files just given a UID
            snapshot.items = []
            return (snapshot, items)
        } catch let error as RunInterrupted {
            throw error
        } catch {
            throw SyncError.scanFailed(.local, error)
        }
    }

    /// Plans and executes what the stream set aside with the local items the server lacks,
    /// then ends the run. The server's items the stream left out (skipped, unparseable, a UID
    /// sent again in a later batch) keep either side's token from vouching for the journal.
    private func finishFirstPull(
        _ stream: FirstPullStream, local l: SideSnapshot, items: PackedItems, token: ChangeToken?,
        executor: Executor
    ) async throws -> SyncReport {
        let pulled = stream.pulled
        let repeated = try pulled.repeatedKeys(journal: journal)
        let r = SideSnapshot(items: pulled.setAside, unparseable: pulled.unparseable, token: token)
        // Built, not copied and trimmed: a copy of every local item would be the run's peak.
        var unrecorded = SideSnapshot(
            items: (0..<items.count).compactMap { pulled.recorded[$0] ? nil : items[$0] },
            unparseable: l.unparseable, token: l.token)
        unrecorded.problems = l.problems
        unrecorded.problemKeys = l.problemKeys
        unrecorded.folder = l.folder
        unrecorded.missingUID = l.missingUID
        unrecorded.population = items.count
        let plan = Planner.plan(local: unrecorded, remote: r, journal: [], policy: policy)
        try await executor.execute(plan, journal: [:], part: .last)
        var end = RunEnd(plan: plan, local: unrecorded, remote: r)
        end.errors = repeated
        if pulled.leftOut || !repeated.isEmpty { end.unaccounted = [.local, .remote] }
        var report = try await endRun(executor, end)
        // What the server refused is held back from the first run on, as from any later one.
        try keepHeldBack([:], failed: executor.heldBack, into: &report)
        return report
    }
}
