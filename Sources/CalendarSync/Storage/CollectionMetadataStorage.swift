import Foundation

/// A storage that may hold writes back and makes them durable on `flush()` (a vdir syncs its
/// folder once per batch instead of once per file). The executor flushes after each batch,
/// before recording its outcomes.
public protocol FlushingStorage: CalendarStorage {
    func flush() async throws
    /// True when `flush()` may run while later writes are made, and then makes durable at
    /// least every write that ended before it was called: the executor then writes the next
    /// batch while the one before is flushed.
    var flushesWhileWriting: Bool { get }
}

extension FlushingStorage {
    public var flushesWhileWriting: Bool { false }
}

extension VDirStorage: FlushingStorage {
    /// A `syncfs` (or the fsyncs of a few files) covers every file written before it starts.
    public var flushesWhileWriting: Bool { true }
}

/// A storage that takes several writes at once. Others get one write at a time.
public protocol ConcurrentWritingStorage: CalendarStorage {
    /// How many writes may be in flight at once.
    var maximumConcurrentWrites: Int { get }
    /// True when more writes at once are worth it only where they are faster, which only
    /// trying tells (a server): the executor then starts with one and finds the number run by
    /// run (`WriteConcurrency`). False: always `maximumConcurrentWrites`.
    var measuresConcurrentWrites: Bool { get }
}

extension ConcurrentWritingStorage {
    public var measuresConcurrentWrites: Bool { false }
}

extension VDirStorage: ConcurrentWritingStorage {
    /// One writer per core: a batch's files are made durable together (one `syncfs`), so no
    /// write waits on its own fsync. (A first pull's batches of new files take two per core:
    /// `batchWriters`.)
    public var maximumConcurrentWrites: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }
}

/// A collection's display name and color: a vdir's `displayname` and `color` files, a CalDAV
/// collection's `DAV:displayname` and `calendar-color`.
public struct CollectionMetadata: Sendable, Hashable {
    public var displayName: String?
    public var color: String?
    public init(displayName: String? = nil, color: String? = nil) {
        self.displayName = displayName
        self.color = color
    }
}

/// A storage whose collection has a display name and color to keep in sync. Optional: a pair
/// syncs metadata only when both sides conform.
public protocol CollectionMetadataStorage: CalendarStorage {
    func metadata() async throws -> CollectionMetadata
    /// Sets the fields that are non-nil; nil fields are left as they are.
    func setMetadata(_ metadata: CollectionMetadata) async throws
}

extension VDirStorage: CollectionMetadataStorage {
    public func metadata() async throws -> CollectionMetadata {
        CollectionMetadata(displayName: directory.metadata(.displayName), color: directory.metadata(.color))
    }

    public func setMetadata(_ metadata: CollectionMetadata) async throws {
        if options.createFolder { try directory.createIfMissing() }
        if let name = metadata.displayName { try directory.setMetadata(.displayName, name) }
        if let color = metadata.color { try directory.setMetadata(.color, color) }
    }
}

/// Three-way sync of one metadata field: a side that changed since the last sync wins; when
/// both changed, the remote value wins; a missing value never deletes the other side's.
enum MetadataMerge {
    /// The values to write to (local, remote), and the value both now agree on.
    static func merge(local: String?, remote: String?, base: String?, normalize: (String) -> String = { $0 })
        -> (setLocal: String?, setRemote: String?, agreed: String?) {
        let l = local.map(normalize), r = remote.map(normalize), b = base.map(normalize)
        if l == r { return (nil, nil, local) }
        if l == nil { return (remote, nil, remote) }
        if r == nil { return (nil, local, local) }
        if l == b { return (remote, nil, remote) }
        if r == b { return (nil, local, local) }
        return (remote, nil, remote)
    }

    /// Colors compare case-insensitively, with an opaque alpha (`#rrggbbff`) equal to none.
    static func normalizeColor(_ color: String) -> String {
        var c = color.lowercased().trimmingCharacters(in: .whitespaces)
        if c.count == 9, c.hasPrefix("#"), c.hasSuffix("ff") { c.removeLast(2) }
        return c
    }
}

extension SyncEngine {
    /// Syncs the display name and color when both sides support it.
    func syncMetadata(into report: inout SyncReport) async {
        guard let l = local as? any CollectionMetadataStorage, let r = remote as? any CollectionMetadataStorage else { return }
        do {
            let lm = try await l.metadata(), rm = try await r.metadata()
            var localState = try journal.collection(.local), remoteState = try journal.collection(.remote)
            let name = MetadataMerge.merge(local: lm.displayName, remote: rm.displayName, base: localState.displayName)
            let color = MetadataMerge.merge(local: lm.color, remote: rm.color, base: localState.color, normalize: MetadataMerge.normalizeColor)
            var toLocal = CollectionMetadata(displayName: name.setLocal, color: color.setLocal)
            var toRemote = CollectionMetadata(displayName: name.setRemote, color: color.setRemote)
            if !policy.direction.writes(.local) { toLocal = CollectionMetadata() }
            if !policy.direction.writes(.remote) { toRemote = CollectionMetadata() }
            if toLocal != CollectionMetadata() { try await l.setMetadata(toLocal) }
            if toRemote != CollectionMetadata() { try await r.setMetadata(toRemote) }
            if policy.direction == .both {
                localState.displayName = name.agreed; localState.color = color.agreed
                remoteState.displayName = name.agreed; remoteState.color = color.agreed
                try journal.setCollection(.local, localState)
                try journal.setCollection(.remote, remoteState)
            }
        } catch {
            report.addError("collection name and color: \(Executor.describe(error))",
                            cause: ErrorCause.of(error, item: "collection name and color"))
        }
    }
}

/// A storage that can hand over every item with its bytes in one pass (CalDAV: one
/// `calendar-query` for all data), cheaper than a listing followed by batched fetches.
/// The scanner uses it when the journal knows nothing of the side (a first sync).
public protocol BulkFetchingStorage: CalendarStorage {
    /// Every item with its bytes, and the change token taken before the listing (so changes
    /// made during it are seen next time).
    func fetchAll() async throws -> (items: [StoredItem], token: ChangeToken?)
}

/// A storage that hands over every item in batches while it is still reading the rest (CalDAV:
/// one `calendar-query` read as it arrives; a vdir: its files, a batch at a time). A first pull
/// writes the first files while later items are still being read, and holds a few batches in
/// memory, not the collection.
public protocol StreamingFetchingStorage: CalendarStorage {
    /// Reads every item and calls `body` with each batch of at most `batchSize`, in order, as
    /// soon as it is read. `body` must not use this storage (its connection is busy).
    /// - Returns: the change token taken before the items were read.
    /// - Throws: what `body` threw, or the read's error (after the batches read before it).
    func fetchAll(batchSize: Int, into body: ([StoredItem]) async throws -> Void) async throws -> ChangeToken?
}

extension CalDAVStorage: ConcurrentWritingStorage {
    /// Up to four requests at once, if the server is faster for them: one that handles each
    /// request on its own core takes writes faster so, one that serialises them (Radicale) or
    /// slows down under them (Xandikos) does not, and is left one at a time.
    /// `CALGW_WRITE_CONCURRENCY` fixes the number instead.
    public var maximumConcurrentWrites: Int { fixedWriteConcurrency ?? 4 }
    public var measuresConcurrentWrites: Bool { fixedWriteConcurrency == nil }
}
