import Foundation
import VDir

/// The pipeline of a streamed first pull (``SyncEngine/streamedFirstPull()``): batches at every
/// stage at once. One batch is parsed (on every core) while the one before it is planned here,
/// the one before that is written by the executor, and the flushes and journal commits of
/// earlier ones run behind it. Parsing, planning, files and journal overlap instead of taking
/// turns; the executor runs one plan at a time, in order.
///
/// Used from one task (the server's listing calls back in order), so its state needs no lock.
final class FirstPullStream {
    /// Items handed over per batch while a first pull streams.
    static let batchSize = 2048

    private let local: LocalItems
    /// The local items by a digest of their bytes, to take a server's item equal to a file
    /// without parsing it again.
    private let localByBytes: [BytesDigest: Int32]
    /// The UIDs of vdir files a hand edit broke (``SideSnapshot/problemKeys``): the server's
    /// items with them are set aside, to be left alone with the file, not pulled over it.
    private let blocked: Set<ItemKey>
    private let executor: Executor
    private let policy: SyncPolicy
    /// What the stream has seen of the server so far.
    private(set) var pulled: StreamedItems
    /// The batch being parsed.
    private var parsed: (stored: [StoredItem], contents: Task<[ItemContent], Never>)?
    /// The batch being written.
    private var executing: Task<Void, any Error>?

    init(local snapshot: SideSnapshot, items: PackedItems, executor: Executor, policy: SyncPolicy) {
        local = LocalItems(items)
        localByBytes = snapshot.itemsByBytes
        blocked = Set(snapshot.problemKeys.values)
        self.executor = executor
        self.policy = policy
        pulled = StreamedItems(localCount: local.count)
    }

    /// The vdir holds no item (and no broken one): every item the server sends is a copy into
    /// an empty folder, compared with nothing (``StreamedItems/take(_:contents:local:blocked:)``
    /// compares only the keys the vdir holds), so its hash proper is left pending
    /// (``ContentHash/pending(for:)``) until a side of it changes. A first pull's most costly
    /// step per item was that hash.
    private var copiesOnly: Bool { local.count == 0 && blocked.isEmpty }

    /// Reads the server's items and writes them as they come, every batch written and settled
    /// when it returns.
    /// - Returns: the server's change token.
    func pull(from streaming: any StreamingFetchingStorage) async throws -> ChangeToken? {
        let token = try await streaming.fetchAll(batchSize: Self.batchSize) { stored in
            let parsing = Task.detached { [local, localByBytes, copiesOnly] in
                copiesOnly
                    ? stored.mappedOnEveryCore { ItemContent(pendingHashOf: $0.data) }
                    : Self.contents(of: stored, local: local, byBytes: localByBytes)
            }
            let previous = parsed
            parsed = (stored, parsing)
            if let previous { try await handOver(previous.stored, await previous.contents.value) }
        }
        try await keepWhatArrived()
        return token
    }

    /// Writes the batch still being parsed, then waits for every write and commit: after a
    /// broken answer, what arrived before it is kept.
    /// - Throws: an error of the writing (nothing is left writing then).
    func keepWhatArrived() async throws {
        do {
            if let last = parsed { try await handOver(last.stored, await last.contents.value) }
            parsed = nil
            try await written()
            try await executor.settle()
        } catch {
            await abandon()
            throw error
        }
    }

    /// Waits for the writing under way without keeping its error, so that nothing is left
    /// writing when a run ends early; what was committed is recovered as usual.
    func abandon() async {
        try? await written()
        await executor.abandonUnsettled()
    }

    /// Plans a parsed batch and starts writing it once the batch before it is written.
    private func handOver(_ stored: [StoredItem], _ contents: [ItemContent]) async throws {
        let (batch, equal) = pulled.take(stored, contents: contents, local: local, blocked: blocked)
        guard !batch.items.isEmpty || !batch.unparseable.isEmpty || !equal.isEmpty else { return }
        var plan = Planner.plan(local: SideSnapshot(items: []), remote: batch, journal: [], policy: policy)
        pulled.note(plan, of: batch)
        plan.actions += equal
        try await executing?.value
        executing = Task { [executor, plan] in try await executor.execute(plan, journal: [:], part: .streamed) }
    }

    /// Waits for the batch being written; its error, if any, is the run's.
    private func written() async throws {
        defer { executing = nil }
        try await executing?.value
    }

    /// What each of a batch of the server's items is: taken from the local file with the same
    /// bytes when there is one, else parsed (on every core). A takeover of a folder already in
    /// sync would otherwise parse and hash every item twice, once per side.
    private static func contents(of stored: [StoredItem], local: LocalItems, byBytes: [BytesDigest: Int32])
        -> [ItemContent]
    {
        guard !byBytes.isEmpty else { return SideScanner.contents(of: stored) }
        return stored.mappedOnEveryCore { item in
            if let position = byBytes[BytesDigest(item.data)], let known = ItemContent(of: local.items[Int(position)]) {
                return known
            }
            return ItemContent(item.data)
        }
    }
}
