import Foundation

extension SyncEngine {
    /// Items handed over per batch while a first pull streams.
    static let streamedBatchSize = 2048

    /// What each of a batch of the server's items is: taken from the local file with the same
    /// bytes when there is one, else parsed (on every core). A takeover of a folder already in
    /// sync would otherwise parse and hash every item twice, once per side.
    fileprivate static func contents(of stored: [StoredItem], local: LocalItems, byBytes: [BytesDigest: Int32]) -> [ItemContent] {
        guard !byBytes.isEmpty else { return SideScanner.contents(of: stored) }
        return stored.mappedOnEveryCore { item in
            if let position = byBytes[BytesDigest(item.data)], let known = ItemContent(of: local.items[Int(position)]) { return known }
            return ItemContent(item.data)
        }
    }

    /// A pair's first sync with a server that can stream its items: each batch of remote items
    /// is written into the vdir as soon as it is read, while later ones are still arriving, so
    /// memory holds a few batches, not the collection, and writing overlaps the transfer.
    ///
    /// The journal is empty, so every remote item whose key no local file has is a plain
    /// create on the local side, whatever the rest holds: those are planned and executed batch
    /// by batch (with the usual intents, so an interruption is recovered as any other). A
    /// remote item equal to the local file of its key is recorded with its batch (a takeover
    /// of a folder another tool synced is mostly these). One that differs is set aside,
    /// without its bytes, and planned with the local side once the read ended, as a full run
    /// would (a conflict); local items the server lacks are uploaded then too, when the
    /// connection is free again. The local side is kept without its bytes: memory holds what
    /// each item is and a few batches, whatever the calendar's size.
    ///
    /// - Returns: nil when the run is not a first pull this path can take (the full run follows).
    func streamedFirstPull() async throws -> SyncReport? {
        guard policy.window == nil, policy.direction.writes(.local),
              let streaming = remote.capabilities.streamingFetching,
              try journal.isEmpty(), try journal.pendingIntents().isEmpty,
              try journal.outsideItems(.local).isEmpty, try journal.outsideItems(.remote).isEmpty,
              try journal.collection(.local).token == nil, try journal.collection(.remote).token == nil else { return nil }

        let l: SideSnapshot
        do {
            var scanner = SideScanner(side: .local, storage: local)
            scanner.setsAsideMissingUIDs = policy.direction.writes(.remote)
            scanner.keepsData = Self.keepsBytesInFirstSync(local)
            scanner.digestsBytes = true
            l = try await assigningMissingUIDs(in: scanner.scan(journal: [], token: nil))
        } catch let error as RunInterrupted {
            throw error
        } catch {
            throw SyncError.scanFailed(.local, error)
        }
        let localItems = LocalItems(l.items)
        let executor = Executor(local: local, remote: remote, journal: journal,
                                resolver: ConflictResolver(strategy: policy.conflict, prompt: prompt),
                                direction: policy.direction, faultHook: faultHook, progress: progress)
        executor.remoteIsReadOnly = policy.remoteIsReadOnly
        executor.stop = stop
        // Each batch's flush and commit run while the next ones are written.
        executor.leavesLastFlushRunning = true
        var pulled = StreamedItems(localCount: localItems.count)
        // Batches at every stage at once: one is parsed (on every core) while the one before it
        // is planned here, the one before that is written by the executor, and the flushes and
        // journal commits of earlier ones run behind it. Parsing, planning, files and journal
        // overlap instead of taking turns; the executor runs one plan at a time, in order.
        var parsed: (stored: [StoredItem], contents: Task<[ItemContent], Never>)?
        var executing: Task<Void, any Error>?
        func pull(_ stored: [StoredItem], _ contents: [ItemContent]) async throws {
            let (batch, equal) = pulled.take(stored, contents: contents, local: localItems)
            guard !batch.items.isEmpty || !batch.unparseable.isEmpty || !equal.isEmpty else { return }
            var plan = Planner.plan(local: SideSnapshot(items: []), remote: batch, journal: [], policy: policy)
            pulled.note(plan, of: batch)
            plan.actions += equal
            try await executing?.value
            executing = Task { [plan] in try await executor.execute(plan, journal: [:], continuing: true) }
        }
        /// Waits for the batch being written; its error, if any, is the run's.
        func written() async throws {
            defer { executing = nil }
            try await executing?.value
        }
        // The journal is empty: its item rows are appended while the server's items stream in,
        // and indexed once they are all in (an interrupted run leaves that to the next open).
        try journal.beginBulkLoad()
        let token: ChangeToken?
        do {
            token = try await streaming.fetchAll(batchSize: Self.streamedBatchSize) { stored in
                let parsing = Task.detached { [byBytes = l.itemsByBytes] in
                    Self.contents(of: stored, local: localItems, byBytes: byBytes)
                }
                let previous = parsed
                parsed = (stored, parsing)
                if let previous { try await pull(previous.stored, await previous.contents.value) }
            }
            if let last = parsed { try await pull(last.stored, await last.contents.value) }
            try await written()
            try await executor.settle()
            try journal.endBulkLoad()
        } catch let error as RunInterrupted {
            // Nothing is left writing when the run ends, even interrupted.
            try? await written()
            await executor.abandonUnsettled()
            throw error
        } catch let error as RunStopped {
            // Asked to stop: the batches written so far are committed, and the rows indexed.
            try? await written()
            await executor.abandonUnsettled()
            try journal.endBulkLoad()
            throw error
        } catch {
            // The items read before the answer broke off are kept: the batches written so far
            // are in the journal, whole, and the one still being parsed is written now. The
            // rerun lists the server and fetches only what is missing.
            do {
                if let last = parsed { try await pull(last.stored, await last.contents.value) }
                try await written()
                try await executor.settle()
            } catch {
                try? await written()
                await executor.abandonUnsettled()
                throw error
            }
            try journal.endBulkLoad()
            throw SyncError.scanFailed(.remote, error)
        }
        executor.leavesLastFlushRunning = false
        let duplicates = pulled.duplicates + (try pulled.repeatedKeys(journal: journal))

        let r = SideSnapshot(items: pulled.setAside, token: token)
        // Built, not copied and trimmed: a copy of every local item would be the run's peak.
        var unrecorded = SideSnapshot(items: l.items.indices.compactMap { pulled.recorded[$0] ? nil : l.items[$0] },
                                      unparseable: l.unparseable, token: l.token)
        unrecorded.problems = l.problems
        unrecorded.folder = l.folder
        unrecorded.missingUID = l.missingUID
        unrecorded.population = l.items.count
        let plan = Planner.plan(local: unrecorded, remote: r, journal: [], policy: policy)
        try await executor.execute(plan, journal: [:], continuing: true)
        var report = executor.report
        try await syncMetadata(into: &report)
        for href in l.unparseable where l.problems[href] == nil {
            report.skipped.append("\(href) on the local side does not parse; left alone")
        }
        for href in pulled.unparseable { report.skipped.append("\(href) on the remote side does not parse; left alone") }
        report.skipped += pulled.skipped
        Self.reportHandEditProblems(l.problems, into: &report)
        Self.reportDuplicateUIDs(plan, local: unrecorded, remote: r, into: &report)
        report.errors += duplicates.map { ReportedError($0) }

        try journal.replaceOutsideItems(.local, with: [])
        try journal.replaceOutsideItems(.remote, with: [])
        // As in a full run: a server written to is listed in full next time; the server's token
        // vouches for the journal only when every item it sent is accounted for.
        let remoteMirrors = pulled.skipped.isEmpty && pulled.unparseable.isEmpty && duplicates.isEmpty
            && Self.journalMirrors(.remote, snapshot: r, plan: plan, report: report, replans: executor.replans, journal: [:])
        let remoteClean = remoteMirrors
            && report.created[.remote] + report.updated[.remote] + report.deleted[.remote] == 0 && report.conflicts.isEmpty
        var remoteState = try journal.collection(.remote)
        if remoteClean {
            remoteState.token = token
        } else if remoteMirrors {
            // Written to: a remote listed on this machine (a `file://` vdir) can still vouch for
            // the journal, as after a full run; a server cannot.
            remoteState.token = try await tokenOfJournal(.remote)
        } else {
            remoteState.token = nil
        }
        try journal.setCollection(.remote, remoteState)
        let localClean = pulled.skipped.isEmpty && duplicates.isEmpty
            && Self.journalMirrors(.local, snapshot: l, plan: plan, report: report, replans: executor.replans, journal: [:])
        var localState = try journal.collection(.local)
        localState.token = localClean ? try await tokenOfJournal(.local) : nil
        try journal.setCollection(.local, localState)
        if report.errors.isEmpty { try journal.setLastSync() }
        try journal.pruneIntents()
        return report
    }
}

/// The local side's items by key, for matching the server's as they arrive; a key two local
/// files share is never matched (the final plan reports it). An open-addressing table of
/// positions into the snapshot's items, 4 bytes a slot: a dictionary from key to position
/// took 50 bytes an item (its slack included), a copy of the items 170.
private struct LocalItems {
    let items: [SideItem]
    /// Each slot is empty (0) or a position into `items` plus one; at most three in four are used.
    private var slots: [UInt32]
    private var shared: Set<ItemKey> = []

    init(_ items: [SideItem]) {
        precondition(items.count < Int(UInt32.max), "more local items than a table of positions holds")
        self.items = items
        var capacity = 16
        while capacity - capacity / 4 <= items.count { capacity <<= 1 }
        slots = Array(repeating: 0, count: capacity)
        for (position, item) in items.enumerated() {
            switch find(item.key) {
            case .found: shared.insert(item.key)
            case .free(let slot): slots[slot] = UInt32(position + 1)
            }
        }
    }

    private enum Probe { case found(Int), free(Int) }

    /// The slot holding `key`'s first item, or the free slot where it would go.
    private func find(_ key: ItemKey) -> Probe {
        let mask = slots.count - 1
        var slot = key.hashValue & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return .free(slot) }
            if items[Int(entry) - 1].key == key { return .found(Int(entry) - 1) }
            slot = (slot + 1) & mask
        }
    }

    var count: Int { items.count }

    /// True when a local file holds `key`.
    func holds(_ key: ItemKey) -> Bool {
        if case .found = find(key) { true } else { false }
    }

    /// Where the one local item of `key` is in `items`, nil when none or several hold it.
    func position(of key: ItemKey) -> Int? {
        guard case .found(let position) = find(key), !shared.contains(key) else { return nil }
        return position
    }
}

/// What a streamed first pull has seen of the server so far: the keys it pulled, recorded or
/// skipped (to catch a UID the server holds twice in different batches), the items set aside
/// for the final plan, and what it could not sync.
private struct StreamedItems {
    /// Each remote key no single local file holds that was pulled (false) or skipped (true)
    /// so far, as digests: a string per item would grow with the calendar.
    private var taken: [StringDigest: Bool] = [:]
    /// Whether each local item, by its position in ``LocalItems``, was found equal on the
    /// server and recorded with its batch. A key one local file holds is taken only so, so a
    /// takeover marks a flag per item where a digest and a key per item would take 50 bytes
    /// and more (their tables' slack included) of a 1,000,000-item run's memory.
    private(set) var recorded: [Bool]
    /// Remote items whose key came in an earlier batch already, with whether that first copy
    /// was skipped: reported once the journal holds where the first went (``repeatedKeys(journal:)``).
    private var repeated: [(key: ItemKey, href: ItemHref, firstSkipped: Bool)] = []
    /// Remote items whose key the vdir holds with other content (or twice), without their
    /// bytes: planned after the read.
    var setAside: [SideItem] = []
    private var setAsideKeys: Set<ItemKey> = []
    var unparseable: [ItemHref] = []
    var skipped: [String] = []
    /// Errors for keys the server holds more than once across batches.
    var duplicates: [String] = []

    init(localCount: Int) { recorded = Array(repeating: false, count: localCount) }

    /// The batch's items to pull now, and the records of those equal to their local file;
    /// sets aside those the vdir holds otherwise.
    mutating func take(_ stored: [StoredItem], contents: [ItemContent], local: LocalItems) -> (SideSnapshot, [PlannedAction]) {
        var items: [SideItem] = []
        var equal: [PlannedAction] = []
        var unparseable: [ItemHref] = []
        for (item, content) in zip(stored, contents) {
            guard content.parses else {
                unparseable.append(item.href)
                continue
            }
            var side = SideItem(version: item.version, data: item.data, content: content)
            if let position = local.position(of: side.key) {
                let mine = local.items[position]
                if recorded[position] {
                    repeated.append((side.key, side.href, false))
                } else if mine.hash == side.hash, !setAsideKeys.contains(side.key) {
                    equal.append(.record(local: mine, remote: side))
                    recorded[position] = true
                } else {
                    side.data = nil
                    setAside.append(side)
                    setAsideKeys.insert(side.key)
                }
            } else if let firstSkipped = taken[StringDigest(side.key.value)] {
                repeated.append((side.key, side.href, firstSkipped))
            } else if local.holds(side.key) {
                side.data = nil
                setAside.append(side)
                setAsideKeys.insert(side.key)
            } else {
                items.append(side)
            }
        }
        return (SideSnapshot(items: items, unparseable: unparseable), equal)
    }

    /// Remembers what the batch's plan pulls and skips.
    mutating func note(_ plan: SyncPlan, of batch: SideSnapshot) {
        unparseable += plan.unparseable[.remote] ?? []
        for action in plan.actions {
            switch action {
            case .create(_, let source): taken[StringDigest(source.key.value)] = false
            case .skip(let key, let reason):
                // Two items of the batch with one UID: an error of the run, as in a full run.
                if batch.items.filter({ $0.key == key }).count > 1 { duplicates.append(reason) } else { skipped.append(reason) }
                let digest = StringDigest(key.value)
                if taken[digest] == nil { taken[digest] = true }
            default: break
            }
        }
    }

    /// The errors for keys the server sent again in a later batch, naming the first copy by
    /// its href as the journal recorded it.
    func repeatedKeys(journal: Journal) throws -> [String] {
        guard !repeated.isEmpty else { return [] }
        var firstHref: [ItemKey: ItemHref] = [:]
        for item in try journal.items(keys: repeated.map(\.key)) { firstHref[item.key] = item.remote.href }
        return repeated.map { key, href, firstSkipped in
            let first = firstSkipped ? "an item skipped earlier" : firstHref[key]?.value ?? "an item pulled earlier"
            return "2 items on the remote side have UID \(key.value): \(first), \(href); "
                + "the first was pulled, the other is not synced (hint: give one a new UID, or delete the copy)"
        }
    }
}
