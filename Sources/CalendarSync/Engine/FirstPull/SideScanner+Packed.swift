import Foundation

extension SideScanner {
    /// A first sync's scan of a side new to the journal, its items packed as each batch is
    /// read (``PackedItems``) instead of held as `SideItem`s: what a streamed first pull holds
    /// of the local side for the whole pull. The snapshot holds everything else the scan found
    /// (what does not parse, the hand edits' problems, the files without a UID set aside, the
    /// digests of the items' bytes, the token) and no items.
    ///
    /// Reads as ``scan(journal:token:outside:changes:)`` does with an empty journal and no
    /// token: a storage that hands over everything in one pass is read so, and packed after.
    func scanPacked() async throws -> (SideSnapshot, PackedItems) {
        if readsInBulkWhenNew, storage.capabilities.bulkFetching != nil {
            return Self.packing(try await scan(journal: [], token: nil))
        }
        let answered = try await storage.changes(since: nil)
        let changes = try await answered.completed(by: storage.capabilities.windowedListing, knowing: [])
        guard case .full(let versions, let token) = changes else {
            return Self.packing(try await scan(journal: [], token: nil, changes: answered))
        }
        let files = side == .local ? storage.capabilities.fileBacked : nil
        var found = ScannedItems(scanner: self, known: KnownItems(side: side, journal: [], outside: []))
        var packed = PackedItems(
            capacity: versions.count,
            textLength: versions.reduce(0) { $0 + $1.href.value.utf8.count + $1.etag.value.utf8.count })
        let size = files != nil ? max(batchSize, 1024) : batchSize
        var start = 0
        while start < versions.count {
            let end = min(start + size, versions.count)
            found.add(try await storage.fetch(versions[start..<end].map(\.href)), files: files)
            start = end
            for item in found.items { packed.append(item) }
            found.drained += found.items.count
            found.items.removeAll(keepingCapacity: true)
        }
        return (found.snapshot(token: token), packed)
    }

    /// A snapshot's items packed, and the snapshot without them.
    static func packing(_ snapshot: SideSnapshot) -> (SideSnapshot, PackedItems) {
        var rest = snapshot
        var packed = PackedItems(capacity: snapshot.items.count)
        for item in snapshot.items { packed.append(item) }
        rest.items = []
        return (rest, packed)
    }
}
