import Foundation

/// Plain writes (create, update, delete) run in batches: the batch's intents are committed in
/// one transaction, the writes then run (several at a time on a side that takes it, so file
/// fsyncs overlap), and their outcomes are committed in one transaction. The crash guarantees are
/// those of one write at a time: every write has a committed intent before it starts, and an
/// outcome only after it ended.
///
/// A batch's outcomes wait for its side's flush (a vdir's `syncfs`). Where the storage allows
/// it, the flush and then the commit of the outcomes run in the background, in the order of
/// the batches, while the next batches are read and written: a first pull's files, its flushes
/// and its journal commits overlap instead of taking turns. At most two batches are unsettled
/// at once; the older is *settled* (its commit awaited, its refused writes planned again) once
/// the newer one's writes are made. Writes made after a flush started are covered by the next
/// one, and no outcome is committed before the flush that makes its write durable returned, so
/// an interruption anywhere leaves intents that recovery resolves as before.
extension Executor {
    /// A batch whose writes are made and whose flush and commit are running.
    struct UnsettledBatch {
        /// Flushes the batch's side, then commits its outcomes (after the batch before it).
        var commit: Task<Void, any Error>
        var failures: [(PlannedAction, any Error)]
        var retry: [PlannedAction]
        var byKey: [ItemKey: JournalItem]
    }

    /// Batches whose writes are made and whose outcomes may still be committing.
    static let maximumUnsettledBatches = 2

    /// Writes in a run's first batch. Each next batch is twice as large, up to
    /// `maximumBatchSize`: a small run is durable write by write almost, a large one pays the
    /// two journal transactions and the flush (a `syncfs`) once per 2,048 writes, not per 128
    /// (a first pull of 100,000 events: 49 batches instead of 782).
    static let batchSize = 128
    static let maximumBatchSize = 2048

    /// True for the actions a batch can carry.
    static func isPlainWrite(_ action: PlannedAction) -> Bool {
        switch action {
        case .create, .update, .delete: true
        default: false
        }
    }

    /// The batch is a write section of the stop gate (``StopGate``) from before its intents are
    /// recorded until its outcomes are committed, in the background or not.
    func executeBatch(_ actions: [PlannedAction], journal byKey: [ItemKey: JournalItem]) async throws {
        try stop?.enter()
        let written: WrittenBatch
        do {
            written = try await writeBatch(actions)
        } catch {
            stop?.leave()
            throw error
        }
        // The commit leaves the write section once the outcomes are committed.
        let commit = commitInBackground(written.completions)
        unsettled.append(UnsettledBatch(commit: commit, failures: written.failures, retry: written.retry, byKey: byKey))
        if !Side.allCases.allSatisfy({ storage($0).capabilities.flushing?.flushesWhileWriting ?? true }) {
            try await settle()
        } else {
            while unsettled.count > Self.maximumUnsettledBatches { try await settleOldest() }
        }
    }

    /// A batch's writes, made: the outcomes to commit once they are durable, the writes that
    /// failed, and those whose source changed before it could be read (planned again).
    struct WrittenBatch {
        var completions: [(Intent, IntentOutcome, JournalChange)] = []
        var failures: [(PlannedAction, any Error)] = []
        var retry: [PlannedAction]
    }

    /// Reads the sources the scan did not keep, records the batch's intents in one
    /// transaction, and makes the writes.
    private func writeBatch(_ actions: [PlannedAction]) async throws -> WrittenBatch {
        let (ready, retry) = try await withSourcesRead(actions)
        let intents = try journal.recordAll(ready.map { Self.intent(for: $0) })
        try effect()
        let outcomes = try await makeWrites(ready)
        var batch = WrittenBatch(retry: retry)
        batch.completions.reserveCapacity(ready.count)
        for i in ready.indices {  // by index: each action read in place, not copied
            switch outcomes[i] {
            case .failure(let error):
                let reason = Self.describe(error)
                batch.completions.append(
                    (intents[i], Self.mayHaveLanded(error) ? .unknown(reason) : .failed(reason), .none))
                batch.failures.append((ready[i], error))
            case .success(let written):
                batch.completions.append((intents[i], .done, landed(ready[i], written: written)))
            }
        }
        return batch
    }

    /// The actions with the sources the scan did not keep, read now (one request per side);
    /// those whose source changed into something else or went away meanwhile, to plan again.
    private func withSourcesRead(_ actions: [PlannedAction]) async throws -> (
        ready: [PlannedAction], retry: [PlannedAction]
    ) {
        // Nearly always the scan kept every source: the actions as they are, none copied.
        // By index: through a key path each action was copied to be looked at.
        guard actions.indices.contains(where: { actions[$0].lacksItsSource }) else { return (actions, []) }
        var missing: [Side: [ItemHref]] = [:]
        for action in actions {
            switch action {
            case .create(let side, let s) where s.data == nil, .update(let side, _, let s) where s.data == nil:
                missing[side.other, default: []].append(s.href)
            default: break
            }
        }
        var fetched: [Side: [ItemHref: StoredItem]] = [:]
        for (side, hrefs) in missing {
            fetched[side] = Dictionary(
                try await storage(side).fetch(hrefs).map { ($0.href, $0) }, uniquingKeysWith: { a, _ in a })
        }
        var ready: [PlannedAction] = []
        var retry: [PlannedAction] = []
        for action in actions {
            switch action {
            case .create(let side, let s) where s.data == nil:
                guard let stored = fetched[side.other]?[s.href], let fresh = Self.refreshed(s, from: stored) else {
                    retry.append(action); continue
                }
                ready.append(.create(on: side, source: fresh))
            case .update(let side, let t, let s) where s.data == nil:
                guard let stored = fetched[side.other]?[s.href], let fresh = Self.refreshed(s, from: stored) else {
                    retry.append(action); continue
                }
                ready.append(.update(on: side, target: t, source: fresh))
            default:
                ready.append(action)
            }
        }
        return (ready, retry)
    }

    /// Makes the writes, each side at its own pace: files in parallel, a server one request at
    /// a time unless it takes more and is faster for it (see `WriteConcurrency`). The outcome
    /// of each, in order.
    private func makeWrites(_ ready: [PlannedAction]) async throws -> [Result<SideItem?, any Error>] {
        var outcomes = [Result<SideItem?, any Error>](repeating: .failure(RunInterrupted()), count: ready.count)
        for side in Side.allCases {
            var indices = ready.indices.filter { ready[$0].writes == side }
            if let batching = storage(side).capabilities.batchCreating {
                indices = try await createAll(ready, at: indices, on: side, through: batching, into: &outcomes)
            }
            guard !indices.isEmpty else { continue }
            let results = try await writeAll(indices.map { ready[$0] }, on: side)
            for (i, result) in zip(indices, results) { outcomes[i] = result }
        }
        return outcomes
    }

    /// Flushes every side that holds writes back, then commits the outcomes after the batch
    /// before's, and leaves the stop gate's write section: in the background, so that the next
    /// batch's writes overlap the flush.
    private func commitInBackground(_ completions: [(Intent, IntentOutcome, JournalChange)]) -> Task<Void, any Error> {
        let flushing = Side.allCases.compactMap { storage($0).capabilities.flushing }
        let before = unsettled.last?.commit
        let gate = stop
        return Task.detached { [journal] in
            defer { gate?.leave() }
            for storage in flushing { try await storage.flush() }
            // Outcomes are committed in the order of their writes; none after a failed flush.
            try await before?.value
            try journal.completeAll(completions)
            try self.effect()
        }
    }

    /// Settles every batch whose flush and commit are running, oldest first: waits for its
    /// commit and plans its refused writes again.
    /// - Throws: a flush's error (the outcomes are then left to recovery, as after a crash).
    func settle() async throws {
        while !unsettled.isEmpty { try await settleOldest() }
    }

    /// Waits for every running commit, keeping none of their errors: a run that stops on an
    /// error leaves nothing writing behind it (what was committed is recovered as usual).
    func abandonUnsettled() async {
        for batch in unsettled { _ = try? await batch.commit.value }
        unsettled = []
    }

    private func settleOldest() async throws {
        let batch = unsettled.removeFirst()
        do {
            try await batch.commit.value
        } catch {
            // The later commits wait for this one and fail with it.
            await abandonUnsettled()
            throw error
        }
        try await replanRefused(batch)
    }

    /// Plans a committed batch's refused writes again and makes them; reports its failures.
    private func replanRefused(_ batch: UnsettledBatch) async throws {
        var retry = batch.retry
        for (action, error) in batch.failures {
            if case StorageError.preconditionFailed = error {
                retry.append(action)
            } else {
                reportFailure(action.key, error, action: action)
            }
        }
        let byKey = batch.byKey
        replans += retry.count
        for action in retry {
            let item = try journal.items(keys: [action.key]).first ?? byKey[action.key]
            let errors = report.errors.count
            do {
                if let next = try await replan(action, journal: item) {
                    try await executeWithReplan(next, journal: item)
                }
            } catch let error as RunInterrupted {
                throw error
            } catch {
                reportFailure(action.key, error, action: action)
            }
            finishedOne(failed: report.errors.count > errors)
        }
    }

    /// Makes the creates among `actions[indices]` in one call to `storage`, each under its
    /// key's name, and sets their outcomes.
    /// - Returns: the indices still to write one by one: the other actions, and creates whose
    ///   name was taken (`createItem` looks at what holds it).
    func createAll(
        _ actions: [PlannedAction], at indices: [Int], on side: Side, through storage: any BatchCreatingStorage,
        into outcomes: inout [Result<SideItem?, any Error>]
    ) async throws -> [Int] {
        let creates = indices.filter { if case .create = actions[$0] { true } else { false } }
        guard creates.count > 1 else { return indices }
        let sources = creates.map { i -> SideItem in
            guard case .create(_, let source) = actions[i] else { preconditionFailure("filtered to creates") }
            return source
        }
        let marking = copyMarking()
        let results = await storage.createAll(
            sources.map { (outgoing($0.data!, to: side, marking: marking), Self.stem(for: $0.key)) })
        var handled = Set<Int>()
        for (i, (source, result)) in zip(creates, zip(sources, results)) {
            switch result {
            case .success(let version):
                try effect()
                outcomes[i] = .success(
                    SideItem(
                        key: source.key, href: version.href, etag: version.etag,
                        hash: source.hash, data: source.data, span: source.span))
                finishedOne(failed: false)
            case .failure(StorageError.alreadyExists):
                continue
            case .failure(let error):
                outcomes[i] = .failure(error)
                finishedOne(failed: true)
            }
            handled.insert(i)
        }
        return indices.filter { !handled.contains($0) }
    }

    /// Makes a batch's writes on `side`, as many at once as the side takes (and, for a server,
    /// as is found faster); the outcome of each, in order. Writes a server failed while several
    /// were in flight are made again one at a time: the failure may have been the concurrency's,
    /// and each write's precondition makes a second attempt safe (a create that did land finds
    /// its own content under its name).
    /// - Throws: only `RunInterrupted`.
    func writeAll(_ actions: [PlannedAction], on side: Side) async throws -> [Result<SideItem?, any Error>] {
        guard let concurrent = storage(side).capabilities.concurrentWriting else {
            return try await runConcurrently(actions, limit: 1)
        }
        var tuning =
            writeConcurrency[side]
            ?? (concurrent.measuresConcurrentWrites
                ? WriteConcurrency(maximum: concurrent.maximumConcurrentWrites)
                : .fixed(concurrent.maximumConcurrentWrites))
        let limit = tuning.limit
        let clock = ContinuousClock(), started = clock.now
        var results = try await runConcurrently(actions, limit: limit, retryingServerFailures: limit > 1)
        let elapsed = clock.now - started
        let failed = results.indices.filter {
            if case .failure(let error) = results[$0] { Self.isServerFailure(error) } else { false }
        }
        tuning.observe(writes: actions.count, elapsed: elapsed, serverFailures: failed.count)
        writeConcurrency[side] = tuning
        if limit > 1, !failed.isEmpty {
            let again = try await runConcurrently(failed.map { actions[$0] }, limit: 1)
            for (i, result) in zip(failed, again) { results[i] = result }
        }
        return results
    }

    /// True for a failure after which the write may still have been made: the request went out
    /// and no answer came (a broken connection, a time-out, a cancelled transfer), or a gateway
    /// gave up waiting for the server (502, 504). Its intent is left for recovery to settle.
    static func mayHaveLanded(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        return (error as? any StorageFailure)?.mayHaveLanded ?? false
    }

    /// True for a failure on the server's side (a 5xx status, a broken connection), which
    /// concurrent writes can cause; false for a refusal of the write itself.
    static func isServerFailure(_ error: any Error) -> Bool {
        (error as? any StorageFailure)?.isServerFailure ?? false
    }

    /// Runs the writes, `limit` at a time; the outcome of each, in order.
    /// - Parameter retryingServerFailures: server failures are made again after the batch, and
    ///   counted as finished then.
    /// - Throws: only `RunInterrupted`.
    func runConcurrently(_ actions: [PlannedAction], limit: Int, retryingServerFailures: Bool = false) async throws
        -> [Result<SideItem?, any Error>]
    {
        var results: [Int: Result<SideItem?, any Error>] = [:]
        try await withThrowingTaskGroup(of: (Int, Result<SideItem?, any Error>).self) { group in
            var next = 0
            while next < actions.count || !group.isEmpty {
                // Asked to stop: the writes not begun are not made (they fail as not made, so
                // their intents settle as not landed); those in flight end first.
                while stop?.requested == nil && next < actions.count && next - results.count < limit {
                    group.addTask(
                        operation: writeTask(actions[next], index: next, retryingServerFailures: retryingServerFailures)
                    )
                    next += 1
                }
                if let (index, result) = try await group.next() { results[index] = result } else { break }
            }
        }
        return (0..<actions.count).map { i in
            results[i] ?? .failure(stop?.requested.map { RunStopped(reason: $0) } ?? RunInterrupted())
        }
    }

    /// One write as a child task: its index and outcome.
    func writeTask(_ action: PlannedAction, index: Int, retryingServerFailures: Bool = false)
        -> @Sendable () async throws -> (Int, Result<SideItem?, any Error>)
    {
        { [self] in
            do {
                let written = try await self.write(action)
                self.finishedOne(failed: false)
                return (index, .success(written))
            } catch let error as RunInterrupted {
                throw error
            } catch {
                // A precondition failure is planned again after the batch, and counted then; a
                // server failure to be retried is counted with its retry.
                let countedLater =
                    if case StorageError.preconditionFailed = error { true } else {
                        retryingServerFailures && Self.isServerFailure(error)
                    }
                if !countedLater { self.finishedOne(failed: true) }
                return (index, .failure(error))
            }
        }
    }

    /// Creates under the key's name; a name taken by equal content (an interrupted run's
    /// write) counts as done, one taken by the same item with other content (made or edited
    /// since the plan) is a precondition failure, so the item is planned again; a name taken by
    /// another item gets a suffix. The one place either path of the executor creates an item.
    /// - Parameters:
    ///   - asking: called with each name before it is asked for (a single write records its intent there).
    ///   - refused: called with a name found taken by other content.
    func createItem(
        _ data: Data, hash: ContentHash, key: ItemKey, span: TimeSpan, on side: Side,
        asking: (String) throws -> Void = { _ in }, refused: (ItemHref) throws -> Void = { _ in }
    ) async throws -> SideItem {
        var stem = Self.stem(for: key)
        let written = outgoing(data, to: side, key: key)
        for attempt in 0..<3 {
            try asking(stem)
            do {
                let version = try await storage(side).create(written, suggestedName: stem, as: writeIntent(for: key))
                return SideItem(key: key, href: version.href, etag: version.etag, hash: hash, data: data, span: span)
            } catch StorageError.alreadyExists(let href) {
                if let existing = try await storage(side).fetch([href]).first {
                    // A pending hash names the bytes copied, not the form they were written in.
                    if hash.isPending ? existing.data == written : hash.describes(existing.data) {
                        return SideItem(
                            key: key, href: href, etag: existing.etag, hash: hash, data: existing.data, span: span)
                    }
                    let content = ItemContent(existing.data)
                    if content.parses && content.key == key {
                        try refused(href)
                        throw StorageError.preconditionFailed(href: href)
                    }
                }
                try refused(href)
                stem = Self.stem(for: key) + "-" + hash.value.suffix(8 + attempt * 4)
            }
        }
        throw StorageError.alreadyExists(href: ItemHref(stem))
    }
}
