import Foundation

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
