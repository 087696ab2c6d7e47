import Foundation
import VDir

/// Builds a side's snapshot: asks the storage what changed since the journal's token, reuses
/// the journal's hash for every item whose etag did not move, and reads only the rest, in
/// batches. It reads only: it never writes to the storage.
public struct SideScanner: Sendable {
    /// The side scanned.
    public var side: Side
    /// The side's storage, which the scanner only reads.
    public var storage: any CalendarStorage
    /// Items fetched per request (default 100).
    public var batchSize = 100
    /// Keeps new vdir files without a UID out of the snapshot's items, in its `missingUID`,
    /// for the run to give them one before planning (so that the server copy and the file
    /// share it). Off for dry runs and `status`, which plan them under a key from their content.
    public var setsAsideMissingUIDs = false
    /// Reads a side the journal knows nothing of in one bulk pass (a first sync). Off when the
    /// journal rows given are only those of the items that changed (see `narrowedPlan`).
    public var readsInBulkWhenNew = true
    /// Keeps each item's bytes in the snapshot (the default). Off for a first sync, which reads
    /// every item: the snapshot then holds what each item is (key, version, hash), so memory
    /// does not grow with the items' size, and the executor reads again, a batch at a time,
    /// the items it copies or records.
    public var keepsData = true
    /// Keeps a digest of each item's bytes with its position (`SideSnapshot.itemsByBytes`), by
    /// which a first pull knows a server's copy of a file without parsing it. Off past
    /// `bytesDigestLimit` items, where the table would weigh on the memory bound more than the
    /// parsing it saves is worth.
    var digestsBytes = false
    static let bytesDigestLimit = 250_000

    /// A scanner of `side`'s `storage`, fetching `batchSize` items per request.
    public init(side: Side, storage: any CalendarStorage, batchSize: Int = 100) {
        self.side = side
        self.storage = storage
        self.batchSize = batchSize
    }

    /// Scans the side.
    /// - Parameters:
    ///   - journal: the items the journal knows.
    ///   - token: the side's change token from the last clean run (nil: list everything).
    ///   - outside: items of this side seen outside the sync window earlier (no data), reused
    ///     like journal rows while their etag holds.
    ///   - changes: what the storage already answered for `token` in this run (nil: ask it).
    public func scan(
        journal: [JournalItem], token: ChangeToken?, outside: [SideItem] = [],
        changes answered: StorageChanges? = nil
    ) async throws -> SideSnapshot {
        let known = KnownItems(side: side, journal: journal, outside: outside)
        let files = side == .local ? storage.capabilities.fileBacked : nil
        var found = ScannedItems(scanner: self, known: known)
        if readsInBulkWhenNew, journal.isEmpty, outside.isEmpty, token == nil,
            let bulk = storage.capabilities.bulkFetching
        {
            // A first sync: everything is new, so read it all in one pass. (An empty collection
            // synced before has a token: asking whether it changed is cheaper.)
            let (all, newToken) = try await bulk.fetchAll()
            found.add(all, files: files)
            return found.snapshot(token: newToken)
        }
        var changes: StorageChanges
        if let answered { changes = answered } else { changes = try await storage.changes(since: token) }
        changes = try await changes.completed(
            by: storage.capabilities.windowedListing, knowing: journal.lazy.map { $0.record(side).href })
        var toFetch: [ItemHref] = []
        func reuseOrFetch(_ v: ItemVersion) {
            if let k = known[v.href], k.etag == v.etag { found.items.append(k) } else { toFetch.append(v.href) }
        }
        let newToken: ChangeToken?
        switch changes {
        case .unchanged(let t):
            found.items = known.all()
            found.items.sort { $0.href < $1.href }  // in place: a sorted copy would double the largest array
            return SideSnapshot(items: found.items, token: t)
        case .full(let versions, let t):
            newToken = t
            found.items.reserveCapacity(versions.count)
            versions.forEach(reuseOrFetch)
        case .delta(let changed, let removed, let t):
            newToken = t
            let touched = Set(changed.map(\.href)).union(removed)
            found.items = known.all()
            found.items.removeAll { touched.contains($0.href) }
            found.items.sort { $0.href < $1.href }
            changed.forEach(reuseOrFetch)
        }
        try await fetch(toFetch, into: &found, files: files)
        return found.snapshot(token: newToken)
    }

    /// Reads `hrefs` in batches and adds what each item is. A vdir's files are read in larger
    /// batches than a server's: each batch is read and parsed on every core, and costs no request.
    private func fetch(_ hrefs: [ItemHref], into found: inout ScannedItems, files: (any FileBackedStorage)?)
        async throws
    {
        let size = storage.capabilities.fileBacked != nil ? max(batchSize, 1024) : batchSize
        var start = 0
        while start < hrefs.count {
            let batch = Array(hrefs[start..<min(start + size, hrefs.count)])
            start += size
            found.add(try await storage.fetch(batch), files: files)
        }
    }

    /// Each item parsed and hashed, on every core: a first sync reads thousands at once.
    static func contents(of items: [StoredItem]) -> [ItemContent] {
        items.mappedOnEveryCore { ItemContent($0.data) }
    }

    /// Each item parsed and hashed, with, for a vdir's file, the first problem that keeps it
    /// from being uploaded (a hand edit's mistake); on every core.
    static func contentsAndProblems(of items: [StoredItem], in files: (any FileBackedStorage)?) -> [(
        ItemContent, String?
    )] {
        items.mappedOnEveryCore { stored in
            guard let files else { return (ItemContent(stored.data), nil) }
            var problem: String?
            let content = ItemContent(stored.data) { parsed in
                problem = HandEditCheck.blockingProblem(
                    in: stored.data, parsed: parsed, path: files.path(of: stored.href))
            }
            return (content, problem)
        }
    }
}

/// What the journal (and the items seen outside the sync window) say a side held, by href:
/// positions into the journal rather than a copy of each item, which at 100,000 items was a
/// large share of a run's memory.
struct KnownItems {
    let side: Side
    let journal: [JournalItem]
    private var journalPosition: [ItemHref: Int] = [:]
    private var outside: [ItemHref: SideItem] = [:]

    init(side: Side, journal: [JournalItem], outside: [SideItem]) {
        self.side = side
        self.journal = journal
        for item in outside { self.outside[item.href] = item }
        journalPosition.reserveCapacity(journal.count)
        for (position, item) in journal.enumerated() {
            let href = item.record(side).href
            journalPosition[href] = position
            self.outside[href] = nil  // a journal row outranks an outside item at its href
        }
    }

    /// The item known at `href`, nil when none is.
    subscript(href: ItemHref) -> SideItem? {
        if let position = journalPosition[href] { return item(journal[position]) }
        return outside[href]
    }

    /// Every known item, each href once.
    func all() -> [SideItem] {
        var items: [SideItem] = []
        items.reserveCapacity(journalPosition.count + outside.count)
        for position in journalPosition.values { items.append(item(journal[position])) }
        items.append(contentsOf: outside.values)
        return items
    }

    private func item(_ j: JournalItem) -> SideItem {
        let r = j.record(side)
        return SideItem(
            key: j.key, href: r.href, etag: r.etag, hash: r.hash, lastModified: j.lastModified, sequence: j.sequence,
            span: j.span)
    }
}

/// What a scan found so far: the items it can plan from, those that do not parse (with the
/// problem of a hand-edited file at its line), the new vdir files without a UID set aside, and
/// the digests of the items' bytes (``SideScanner/digestsBytes``).
struct ScannedItems {
    let scanner: SideScanner
    let known: KnownItems
    var items: [SideItem] = []
    var unparseable: [ItemHref] = []
    var problems: [ItemHref: String] = [:]
    var problemKeys: [ItemHref: ItemKey] = [:]
    var missingUID: [StoredItem] = []
    var byBytes: [BytesDigest: Int32] = [:]
    /// How many items were taken out of `items` already (``SideScanner/scanPacked()``): the
    /// positions of `byBytes` count them.
    var drained = 0
    /// The storage writes UIDs into files without one (a vdir), asked once.
    private let takesUIDs: Bool

    init(scanner: SideScanner, known: KnownItems) {
        self.scanner = scanner
        self.known = known
        takesUIDs = scanner.side == .local && scanner.storage.capabilities.takesAssignedUIDs
    }

    /// Parses the items read (on every core) and adds each where it belongs.
    mutating func add(_ stored: [StoredItem], files: (any FileBackedStorage)?) {
        for (item, (content, problem)) in zip(stored, SideScanner.contentsAndProblems(of: stored, in: files)) {
            add(item, content, problem)
        }
    }

    private mutating func add(_ stored: StoredItem, _ content: ItemContent, _ problem: String?) {
        if let problem {
            unparseable.append(stored.href)
            problems[stored.href] = problem
            if content.parses, content.uid != nil { problemKeys[stored.href] = content.key }
            return
        }
        guard content.parses else {
            unparseable.append(stored.href)
            return
        }
        if scanner.setsAsideMissingUIDs, takesUIDs, content.uid == nil, known[stored.href] == nil {
            missingUID.append(stored)
            return
        }
        var key = content.key
        if content.uid == nil, let k = known[stored.href], k.key.isUIDLess { key = k.key }
        var item = SideItem(version: stored.version, data: stored.data, content: content, key: key)
        if !scanner.keepsData { item.data = nil }
        items.append(item)
        let position = drained + items.count - 1
        if scanner.digestsBytes && position < SideScanner.bytesDigestLimit {
            byBytes[BytesDigest(stored.data)] = Int32(position)
        } else if !byBytes.isEmpty {
            byBytes = [:]
        }
    }

    /// The snapshot of what was found, with the listing's `token`.
    func snapshot(token: ChangeToken?) -> SideSnapshot {
        var snapshot = SideSnapshot(items: items, unparseable: unparseable.sorted(), token: token)
        snapshot.problems = problems
        snapshot.problemKeys = problemKeys
        snapshot.folder = scanner.side == .local ? scanner.storage.capabilities.fileBacked?.folderPath : nil
        snapshot.missingUID = missingUID
        snapshot.itemsByBytes = byBytes
        return snapshot
    }
}
