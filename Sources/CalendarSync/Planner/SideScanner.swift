import Foundation

/// Builds a side's snapshot: asks the storage what changed since the journal's token, reuses
/// the journal's hash for every item whose etag did not move, and reads only the rest, in
/// batches. The only I/O before planning.
public struct SideScanner: Sendable {
    public var side: Side
    public var storage: any CalendarStorage
    /// Items fetched per request (default 100).
    public var batchSize = 100

    public init(side: Side, storage: any CalendarStorage, batchSize: Int = 100) {
        self.side = side
        self.storage = storage
        self.batchSize = batchSize
    }

    /// Scans the side.
    /// - Parameters:
    ///   - journal: the items the journal knows.
    ///   - token: the side's change token from the last clean run (nil: list everything).
    public func scan(journal: [JournalItem], token: ChangeToken?) async throws -> SideSnapshot {
        let known = Dictionary(journal.map { ($0.record(side).href, $0) }, uniquingKeysWith: { a, _ in a })
        func fromJournal(_ j: JournalItem) -> SideItem {
            let r = j.record(side)
            return SideItem(key: j.key, href: r.href, etag: r.etag, hash: r.hash, lastModified: j.lastModified, sequence: j.sequence, span: j.span)
        }
        var items: [SideItem] = []
        var toFetch: [String] = []
        var unparseable: [String] = []
        func add(_ stored: StoredItem) {
            let content = ItemContent(stored.data)
            guard content.parses else {
                unparseable.append(stored.href)
                return
            }
            var key = content.key
            if content.uid == nil, let j = known[stored.href], j.key.isUIDLess { key = j.key }
            items.append(SideItem(version: stored.version, data: stored.data, content: content, key: key))
        }
        if journal.isEmpty, let bulk = storage as? any BulkFetchingStorage {
            // A first sync: everything is new, so read it all in one pass.
            let (all, newToken) = try await bulk.fetchAll()
            for stored in all { add(stored) }
            return SideSnapshot(items: items, unparseable: unparseable.sorted(), token: newToken)
        }
        let changes = try await storage.changes(since: token)
        let newToken: ChangeToken?
        switch changes {
        case .unchanged(let t):
            return SideSnapshot(items: journal.map(fromJournal), token: t)
        case .full(let versions, let t):
            newToken = t
            for v in versions {
                if let j = known[v.href], j.record(side).etag == v.etag { items.append(fromJournal(j)) } else { toFetch.append(v.href) }
            }
        case .delta(let changed, let removed, let t):
            newToken = t
            let changedHrefs = Set(changed.map(\.href)), removedHrefs = Set(removed)
            for j in journal where !changedHrefs.contains(j.record(side).href) && !removedHrefs.contains(j.record(side).href) {
                items.append(fromJournal(j))
            }
            for v in changed {
                if let j = known[v.href], j.record(side).etag == v.etag { items.append(fromJournal(j)) } else { toFetch.append(v.href) }
            }
        }
        var start = 0
        while start < toFetch.count {
            let batch = Array(toFetch[start..<min(start + batchSize, toFetch.count)])
            start += batchSize
            for stored in try await storage.fetch(batch) { add(stored) }
        }
        return SideSnapshot(items: items, unparseable: unparseable.sorted(), token: newToken)
    }
}
