import CalendarSync
import Foundation

/// An ``InMemoryStorage`` that also hands over every item in one pass (`fetchAll`, as a
/// server's calendar-query does), counting how it was read: a first sync should read it whole
/// once, a later one only what changed.
public final class BulkStorage: BulkFetchingStorage, @unchecked Sendable {
    /// It fetches in bulk, as a server answering one calendar-query does.
    public var capabilities: StorageCapabilities { StorageCapabilities(bulkFetching: self) }

    /// The items; tests change them through it, as another client would.
    public let inner = InMemoryStorage()
    /// How many times everything was read in one pass.
    public private(set) var bulkReads = 0
    /// How many times items were read by href.
    public private(set) var fetches = 0

    /// An empty storage.
    public init() {}

    /// Every item in one read, counted in `bulkReads`.
    public func fetchAll() async throws -> (items: [StoredItem], token: ChangeToken?) {
        bulkReads += 1
        guard case .full(let versions, let token) = try await inner.changes(since: nil) else { return ([], nil) }
        return (try await inner.fetch(versions.map(\.href)), token)
    }

    /// The inner storage's listing.
    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        try await inner.changes(since: token)
    }

    /// The inner storage's items, each call counted in `fetches`.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        fetches += 1
        return try await inner.fetch(hrefs, for: intent)
    }

    /// Creates in the inner storage.
    public func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        try await inner.create(data, suggestedName: suggestedName, as: intent)
    }

    /// Updates in the inner storage.
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws
        -> ItemVersion
    {
        try await inner.update(href: href, data: data, ifMatch: etag, as: intent)
    }

    /// Deletes in the inner storage.
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        try await inner.delete(href: href, ifMatch: etag, as: intent)
    }
}
