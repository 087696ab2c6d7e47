import CalendarSync
import Foundation

/// An ``InMemoryStorage`` that also streams every item in batches, as a server answering a
/// calendar-query read as it arrives does, so that a pair's first sync with it takes the
/// streamed first pull.
public struct StreamingStorage: StreamingFetchingStorage {
    /// The items; tests change them through it, as another client would.
    public let inner: InMemoryStorage

    /// A streaming view of `inner`.
    public init(_ inner: InMemoryStorage) { self.inner = inner }

    /// It streams its items.
    public var capabilities: StorageCapabilities { StorageCapabilities(streamingFetching: self) }

    /// Every item, `batchSize` at a time, in the order of their hrefs.
    public func fetchAll(batchSize: Int, into body: ([StoredItem]) async throws -> Void) async throws -> ChangeToken? {
        guard case .full(let versions, let token) = try await inner.changes(since: nil) else { return nil }
        var start = 0
        while start < versions.count {
            let end = min(start + batchSize, versions.count)
            try await body(try await inner.fetch(versions[start..<end].map(\.href)))
            start = end
        }
        return token
    }

    /// The inner storage's listing.
    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        try await inner.changes(since: token)
    }

    /// The inner storage's items.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        try await inner.fetch(hrefs, for: intent)
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

    /// Deletes from the inner storage.
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        try await inner.delete(href: href, ifMatch: etag, as: intent)
    }
}
