import Failures
import Foundation
import Synchronization
import VDir

/// Carries out a plan: for each write, the intent is committed to the journal first, then the
/// conditional write is made, then its outcome (and the item's new journal row) is committed.
/// A precondition failure (someone changed the item meanwhile) re-reads that item on both
/// sides and plans it again; nothing is overwritten blindly.
final class Executor: @unchecked Sendable {
    /// What the run told the executor, fixed for its life.
    let configuration: ExecutorConfiguration
    var local: any CalendarStorage { configuration.local }
    var remote: any CalendarStorage { configuration.remote }
    var journal: Journal { configuration.journal }
    var resolver: ConflictResolver { configuration.resolver }
    var direction: SyncDirection { configuration.direction }
    var stop: StopGate? { configuration.stop }
    var progress: SyncProgressHandler? { configuration.progress }
    var remoteIsReadOnly: Bool { configuration.remoteIsReadOnly }
    var personsActions: Set<String> { configuration.personsActions }
    var answers: Set<String> { configuration.answers }

    private let progressState = Mutex(SyncProgress(total: 0))
    var report = SyncReport()
    /// How many items were read again and re-planned after a precondition failure.
    var replans = 0
    /// Writes in the next batch: grows with each batch the executor runs (see `batchSize`).
    var batchLimit = Executor.batchSize
    /// The person's actions done with in this run: written to the remote side, or dropped (an
    /// answer to a meeting that changed meanwhile).
    var doneActions: Set<String> = []
    /// Writes whose storage kept another version than the one written, to bring back once the
    /// plan is done (see `keepRewrittenVersions`).
    var rewrites: [Rewrite] = []
    /// Versions written to the vdir whose answers are to be kept once the plan is done (see
    /// `keepAnswersOfSeriesCutShort`).
    var keptAnswers: [KeptAnswers] = []
    /// A write was refused for want of the privilege (``StorageError/notPermitted``).
    var writesRefused = false
    /// Writes to the server held back in this run, by item key (see ``holdBack(_:_:)``).
    var heldBack: [String: HeldBackWrite] = [:]
    /// Writes at once on each side that measures it, as found so far in this run.
    var writeConcurrency: [Side: WriteConcurrency] = [:]
    /// The batches whose flush and commit are still running, oldest first (see `settle()`).
    var unsettled: [UnsettledBatch] = []

    /// Each side seen as a ``RewritingStorage``, asked once: whether a storage may keep another
    /// version is what it is, and asking it per write built its whole capabilities value.
    let rewriting: (local: (any RewritingStorage)?, remote: (any RewritingStorage)?)

    init(_ configuration: ExecutorConfiguration) {
        self.configuration = configuration
        rewriting = (configuration.local.capabilities.rewriting, configuration.remote.capabilities.rewriting)
    }

    func storage(_ side: Side) -> any CalendarStorage { side == .local ? local : remote }

    /// Counts a side effect of the run, where a test's fault hook may stop it.
    func effect() throws { try configuration.effects.happened() }

    /// How a plan stands among the plans of its run.
    enum PlanPart {
        /// The run's one plan.
        case whole
        /// One of the plans a streamed first pull makes as items arrive: the progress total
        /// grows instead of starting again, and its last batch's flush and commit are left
        /// running, to overlap the next part's writes.
        case streamed
        /// The last of a streamed run's plans: it adds to the total, and settles every batch.
        case last
    }

    /// Runs every action; an item that fails is reported and the rest go on.
    /// - Throws: only `RunInterrupted` (from the fault hook) and `RunStopped`.
    /// - Parameter byKey: the journal's rows of the items the plan acts on (``SyncPlan/rowsActedOn(in:)``).
    func execute(_ plan: SyncPlan, journal byKey: [ItemKey: JournalItem], part: PlanPart = .whole) async throws {
        do {
            try await executeAll(plan, journal: byKey, part: part)
        } catch {
            await abandonUnsettled()
            throw error
        }
    }

    private func executeAll(_ plan: SyncPlan, journal byKey: [ItemKey: JournalItem], part: PlanPart) async throws {
        // Counted, not filtered: a filtered copy of a 100,000-action plan was a run's peak.
        startProgress(total: plan.actions.reduce(0) { $0 + (Self.isTransfer($1) ? 1 : 0) }, continuing: part != .whole)
        try await recordEqualItems(of: plan)
        var batch: [PlannedAction] = []
        // By index: an action taken by `for … in` was copied before it was appended (a copy).
        for i in plan.actions.indices {
            if case .record = plan.actions[i] { continue }
            if Self.isPlainWrite(plan.actions[i]) {
                batch.append(plan.actions[i])
                if batch.count >= batchLimit {
                    try await stopIfAsked()
                    try await executeBatch(batch, journal: byKey)
                    batch = []
                    batchLimit = min(batchLimit * 2, Self.maximumBatchSize)
                }
            } else {
                let action = plan.actions[i]
                // A write on its own flushes its side and reads the journal: the batches before
                // it are settled first.
                try await settle()
                try await stopIfAsked()
                let errors = report.errors.count
                try await inSection { try await executeWithReplan(action, journal: byKey[action.key]) }
                if Self.isTransfer(action) { finishedOne(failed: report.errors.count > errors) }
            }
        }
        if !batch.isEmpty {
            try await stopIfAsked()
            try await executeBatch(batch, journal: byKey)
        }
        if part != .streamed { try await settle() }
        try await keepRewrittenVersions()
        try await keepAnswersOfSeriesCutShort()
    }

    /// Records the items found equal on both sides, before any write: a run stopped by its
    /// writes then knows them, and one deleted on a side before the next run is deleted on the
    /// other, not copied back as if it were new there.
    private func recordEqualItems(of plan: SyncPlan) async throws {
        var records: [(SideItem, SideItem)] = []
        for case .record(let l, let r) in plan.actions {
            records.append((l, r))
            if records.count >= Self.maximumBatchSize {
                try await recordAll(records)
                records = []
            }
        }
        if !records.isEmpty { try await recordAll(records) }
    }

    /// Records items found equal on both sides, in one transaction: a first sync of two full
    /// sides (a folder another tool kept in sync) records every item, and a transaction each
    /// was most of what it cost. The merge base is either side's bytes; where neither was
    /// kept, the local files are read again, and one that changed since the scan gives no base
    /// (the next run sees its new version anyway).
    func recordAll(_ pairs: [(local: SideItem, remote: SideItem)]) async throws {
        let unread = pairs.filter { $0.local.data == nil && $0.remote.data == nil }.map(\.local)
        var bytes: [ItemHref: Data] = [:]
        if !unread.isEmpty {
            let etags = Dictionary(unread.map { ($0.href, $0.etag) }, uniquingKeysWith: { a, _ in a })
            for stored in try await local.fetch(unread.map(\.href)) where etags[stored.href] == stored.etag {
                bytes[stored.href] = stored.data
            }
        }
        try journal.applyAll(pairs.map { l, r in .upsert(Self.row(l, r), base: l.data ?? r.data ?? bytes[l.href]) })
        for _ in pairs { try effect() }
    }

    /// True for the actions the progress counts: writes and conflicts.
    static func isTransfer(_ action: PlannedAction) -> Bool {
        switch action {
        case .create, .update, .delete, .conflict: true
        default: false
        }
    }

    func startProgress(total: Int, continuing: Bool = false) {
        guard let progress else { return }
        progressState.withLock { state in
            // A later part of a run that adds nothing says nothing new.
            if continuing && total == 0 && state.total > 0 { return }
            if continuing { state.total += total } else { state = SyncProgress(total: total) }
            progress(state)
        }
    }

    /// One planned write finished (reported in order, even from concurrent writes).
    func finishedOne(failed: Bool) {
        guard let progress else { return }
        progressState.withLock { state in
            state.done += 1
            if failed { state.failed += 1 }
            progress(state)
        }
    }

    /// Executes one action; on a precondition failure re-reads the item and tries again (three times).
    func executeWithReplan(_ first: PlannedAction, journal item: JournalItem?) async throws {
        var action: PlannedAction? = first
        var attempt = 0
        while let current = action {
            attempt += 1
            do {
                try await execute(current)
                return
            } catch let error as RunInterrupted {
                throw error
            } catch let StorageError.preconditionFailed(href) where attempt < 4 {
                replans += 1
                do {
                    action = try await replan(
                        current, journal: try self.journal.items(keys: [current.key]).first ?? item)
                } catch let error as RunInterrupted {
                    throw error
                } catch {
                    report.addError("\(current.key): cannot read \(href) again after it changed: \(error)")
                    return
                }
            } catch {
                reportFailure(current.key, error, action: current)
                return
            }
        }
    }

    /// Reports an item's failure, with its cause when other items may share it (a full disk,
    /// a read-only folder), so that it can be told once for all of them. A meeting's write the
    /// server failed in its own code is held back (see ``holdBack(_:_:)``) and says so.
    func reportFailure(_ key: ItemKey, _ error: any Error, action: PlannedAction? = nil) {
        if case StorageError.notPermitted = error { writesRefused = true }
        if let action, let note = holdBackKeptLocal(action, error) {
            report.notes.append(note)
            return
        }
        if let action, let held = holdBack(action, error) {
            report.addError(
                "\(key): the server failed on this change (\(held.reason)); held back: it stays in the vdir, and "
                    + "later runs do not send it again until it changes (hint: the server's fault, not the change's: "
                    + "tell the other people of the meeting yourself)")
            return
        }
        report.addError("\(key): \(Self.describe(error))", cause: ErrorCause.of(error, item: "\(key)"))
    }

    /// An error in one line for the report. With `withHint`, the line ends with the hint of an
    /// error that concerns every later write and not only this item's (a full account, a
    /// calendar the account may not write), as an item's failure has no hint line of its own.
    static func describe(_ error: Error, withHint: Bool = true) -> String {
        let text = CauseChain.text(of: error)
        guard withHint, concernsTheRun(error), let hint = (error as? any ExplainedError)?.recovery else { return text }
        return "\(text) (hint: \(hint))"
    }

    /// Whether `error` stops every write of its kind to that place, not only this item's.
    static func concernsTheRun(_ error: Error) -> Bool {
        switch error {
        case StorageError.notPermitted: true
        default: (error as? any StorageFailure)?.concernsEveryWrite ?? false
        }
    }

    /// Re-reads the item on both sides and plans it again.
    func replan(_ action: PlannedAction, journal item: JournalItem?) async throws -> PlannedAction? {
        var hrefs: [Side: Set<ItemHref>] = [.local: [], .remote: []]
        if let item { for s in Side.allCases { hrefs[s]!.insert(item.record(s).href) } }
        switch action {
        case .create(let side, let source): hrefs[side.other]!.insert(source.href)
        case .update(let side, let target, let source):
            hrefs[side]!.insert(target.href); hrefs[side.other]!.insert(source.href)
        case .delete(let side, let target): hrefs[side]!.insert(target.href)
        case .conflict(let l, let r, _), .record(let l, let r):
            hrefs[.local]!.insert(l.href); hrefs[.remote]!.insert(r.href)
        default: break
        }
        var current: [Side: SideItem] = [:]
        for side in Side.allCases {
            for stored in try await storage(side).fetch(Array(hrefs[side]!)) {
                let content = ItemContent(stored.data)
                guard content.parses else {
                    // Half-written or broken now: leave the item alone on both sides.
                    return .skip(
                        action.key,
                        reason: SkipReason(
                            .unreadable,
                            "\(stored.href) on the \(side.rawValue) side does not parse; left alone, and the other side too"
                        ))
                }
                let key = content.uid == nil && item?.key.isUIDLess == true ? item!.key : content.key
                if key == action.key {
                    current[side] = SideItem(version: stored.version, data: stored.data, content: content, key: key)
                }
            }
        }
        guard let next = Planner.planItem(local: current[.local], remote: current[.remote], journal: item) else {
            return nil
        }
        return Planner.restrict(
            next, to: direction, resolvesConflictsOnPull: remoteIsReadOnly, personsActions: personsActions)
    }

    /// Flushes a side that holds writes back, before the journal records them.
    func makeDurable(_ side: Side) async throws {
        if let flushing = storage(side).capabilities.flushing { try await flushing.flush() }
    }

    func data(of item: SideItem, on side: Side) async throws -> SideItem {
        if item.data != nil { return item }
        guard let stored = try await storage(side).fetch([item.href]).first else {
            throw StorageError.preconditionFailed(href: item.href)
        }
        // Changed into something that does not parse: re-plan, which leaves it alone.
        guard let fresh = Self.refreshed(item, from: stored) else {
            throw StorageError.preconditionFailed(href: item.href)
        }
        return fresh
    }

    /// `item` with the bytes and version just read, and what they hold; nil when they do not parse.
    static func refreshed(_ item: SideItem, from stored: StoredItem) -> SideItem? {
        let content = ItemContent(stored.data)
        guard content.parses else { return nil }
        var copy = item
        copy.data = stored.data
        copy.etag = stored.etag
        copy.hash = content.hash
        copy.lastModified = content.lastModified
        copy.sequence = content.sequence
        copy.span = content.span
        return copy
    }

    /// The file-name stem for an item created on a side: from its UID, else its hash.
    static func stem(for key: ItemKey) -> String {
        key.isUIDLess ? "nouid-" + String(key.value.dropFirst(6).prefix(32)) : SafeFileName.stem(forUID: key.value)
    }

    func execute(_ action: PlannedAction) async throws {
        switch action {
        case .pending(let inner):
            if let side = inner.writes { report.pending[side] += 1 }
            if case .conflict(let l, _, _) = inner {
                report.conflicts.append(.init(uid: l.key.value, resolution: .pending))
            }
        case .skip(_, let reason):
            report.add(reason)
        case .forget(let key):
            try journal.apply(.remove(key)); try effect()
        case .record(let l, let r):
            let base = l.data ?? r.data
            try journal.apply(.upsert(Self.row(l, r), base: base)); try effect()
        case .create, .update, .delete:
            try await writeOnItsOwn(action)
        case .conflict(let l0, let r0, let row):
            try await resolveConflict(local: l0, remote: r0, sharingHistory: row != nil)
        }
    }

    /// - Parameter sharingHistory: the journal has a row of the item (the two copies come from
    ///   one synced version); false for two copies that met without one (``ConflictResolver``).
    func resolveConflict(local l0: SideItem, remote r0: SideItem, sharingHistory: Bool) async throws {
        if isPersonsAction(l0.key) && !remoteIsReadOnly {
            return try await resolvePersonsAction(local: l0, remote: r0)
        }
        let l = try await data(of: l0, on: .local), r = try await data(of: r0, on: .remote)
        let base = try journal.base(for: l.key)
        let (resolution, rule) = resolver.resolve(
            key: l.key, local: l.data!, remote: r.data!, base: base.flatMap { $0.isEmpty ? nil : $0 },
            sharingHistory: sharingHistory)
        if remoteIsReadOnly {
            return try await resolveWithReadOnlyRemote(local: l, remote: r, resolution: resolution, rule: rule)
        }
        switch resolution {
        case .unresolved:
            report.conflicts.append(.init(uid: l.key.value, resolution: .unresolved))
            return
        case .takeLocal:
            try await execute(.update(on: .remote, target: r, source: l))
        case .takeRemote:
            try await execute(.update(on: .local, target: l, source: r))
        case .merged(let merged):
            let hash = ContentHash.of(merged)
            try await writeBoth(
                merged, local: { try await self.update(l, with: merged, hash: hash, on: .local) },
                remote: { try await self.update(r, with: merged, hash: hash, on: .remote, copying: $0) })
            report.updated.local += 1
            report.updated.remote += 1
        case .keepBoth(let copy, let copyUID):
            // The copy first: a run stopped before the original is overwritten loses nothing,
            // and the next one finds the copy under its name and goes on.
            // A copy already there with other content (a stopped run made it, and it was edited
            // since) is an item of its own now, synced like any other: it is not made again.
            let key = ItemKey.uid(copyUID), hash = ContentHash.of(copy)
            do {
                try await writeBoth(
                    copy, local: { try await self.create(copy, hash: hash, key: key, on: .local) },
                    remote: { try await self.create(copy, hash: hash, key: key, on: .remote, copying: $0) })
                report.created.local += 1
                report.created.remote += 1
            } catch StorageError.preconditionFailed {}
            try await execute(.update(on: .local, target: l, source: r))
        }
        report.conflicts.append(.init(uid: l.key.value, resolution: rule))
    }

    /// Writes one content to both sides, the local side first; the item's row is recorded once
    /// both landed (the remote write's intent names the local copy as its source, so recovery
    /// can record it too).
    /// - Parameter remote: the remote write, given the local copy's version.
    func writeBoth(_ content: Data, local: () async throws -> Written, remote: (SideRecord) async throws -> Written)
        async throws
    {
        let lw = try await local()
        try journal.complete(lw.intent, change: .none); try effect()
        let rw = try await remote(lw.item.record)
        try journal.complete(rw.intent, change: .upsert(Self.row(lw.item, rw.item), base: content)); try effect()
        noteRewrite(of: rw.item, on: .remote, copying: lw.item)
        noteSent(rw.item.key, to: .remote)
    }

    struct Written {
        var item: SideItem
        var intent: Intent
    }

    /// Creates `data` on `side` under a name from the key, each name asked for recorded first
    /// as an intent (a single write outside a batch); see ``createItem(_:hash:key:span:on:asking:refused:)``.
    /// - Parameter source: the other side's version when `data` is a copy of it (``Intent/source``).
    func create(_ data: Data, hash: ContentHash, key: ItemKey, on side: Side, copying source: SideRecord? = nil)
        async throws -> CreatedItem
    {
        var intent: Intent?
        let item = try await createItem(
            data, hash: hash, key: key, span: ItemContent(data).span, on: side,
            asking: { stem in
                intent = try self.journal.record(.creating(key, named: stem, on: side, hash: hash, copying: source))
                try self.effect()
            },
            refused: { href in
                if let intent { try self.journal.fail(intent, reason: "\(href) exists with other content") }
            })
        try effect()
        try await makeDurable(side)
        return CreatedItem(item: item, intent: intent!)
    }

    typealias CreatedItem = Written

    /// Replaces `target` on `side` with `data`, its intent recorded first.
    /// - Parameter source: the other side's version when `data` is a copy of it (``Intent/source``).
    func update(
        _ target: SideItem, with data: Data, hash: ContentHash, on side: Side, copying source: SideRecord? = nil
    ) async throws -> Written {
        let intent = try journal.record(.updating(target, on: side, hash: hash, copying: source))
        try effect()
        do {
            let version = try await storage(side).update(
                href: target.href, data: outgoing(data, to: side, key: target.key), ifMatch: target.etag,
                as: writeIntent(for: target.key))
            try effect()
            try await makeDurable(side)
            return Written(
                item: SideItem(
                    key: target.key, href: version.href, etag: version.etag, hash: hash, data: data,
                    span: ItemContent(data).span), intent: intent)
        } catch let error as RunInterrupted {
            throw error
        } catch {
            // A write that may have landed stays pending: the next run's recovery looks.
            if !Self.mayHaveLanded(error) { try? journal.fail(intent, reason: Self.describe(error)) }
            throw error
        }
    }

    /// The journal row for an item equal on both sides.
    static func row(_ l: SideItem, _ r: SideItem) -> JournalItem {
        JournalItem(
            key: l.key, local: l.record, remote: r.record, lastModified: l.lastModified ?? r.lastModified,
            sequence: max(l.sequence, r.sequence),
            span: l.data != nil ? l.span : r.span)
    }
}
