import Foundation

/// One side of a sync: a vdir or a CalDAV collection. The planner never knows which side is
/// a server; both speak this protocol.
///
/// Items are opaque bytes addressed by an href and versioned by an etag. For a vdir the href
/// is the file name and the etag is the file's stat signature; for CalDAV they are the
/// server's href and ETag. Writes are conditional, so a change made by someone else between
/// listing and writing is never overwritten.
public protocol CalendarStorage: Sendable {
    /// What changed since `token` (nil: list everything). A storage that can tell cheaply
    /// that nothing changed (an unchanged sync-token, ctag or directory signature) answers
    /// `.unchanged` without listing.
    func changes(since token: ChangeToken?) async throws -> StorageChanges

    /// The current bytes and etags of `hrefs`. Items that no longer exist are left out of the
    /// result; the caller batches (a storage may fetch a batch in one request).
    /// - Parameter intent: what the items are read for: a read before the person's own action
    ///   on a meeting lets a scheduling server's storage keep what that write is conditional on
    ///   (RFC 6638's Schedule-Tag).
    func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem]

    /// Creates a new item. `suggestedName` is a safe file-name stem derived from the UID;
    /// the storage may choose another href.
    /// - Parameter intent: why the item is written (``WriteIntent``): a scheduling server sends
    ///   invitations for the person's action, never for a copy.
    /// - Throws: `StorageError.alreadyExists` when the href is taken.
    func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion

    /// Replaces an item only if its etag is still `etag`.
    /// - Parameter intent: why the item is written (``WriteIntent``).
    /// - Returns: the item's new version (its etag after the write).
    /// - Throws: `StorageError.preconditionFailed` when someone else changed it.
    func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws -> ItemVersion

    /// Deletes an item only if its etag is still `etag`.
    /// - Parameter intent: why the item is deleted (``WriteIntent``): a scheduling server
    ///   cancels a meeting for the person's action, never for a copy's deletion.
    /// - Throws: `StorageError.preconditionFailed` when someone else changed it;
    ///   an item already gone is not an error.
    func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws

    /// What the storage can do besides this contract (see ``StorageCapabilities``); none by
    /// default.
    var capabilities: StorageCapabilities { get }
}

extension CalendarStorage {
    /// The current bytes and etags of `hrefs`, read for a copy.
    public func fetch(_ hrefs: [ItemHref]) async throws -> [StoredItem] { try await fetch(hrefs, for: .copy) }

    /// Creates a new item as a copy, which schedules nothing.
    public func create(_ data: Data, suggestedName: String) async throws -> ItemVersion {
        try await create(data, suggestedName: suggestedName, as: .copy)
    }

    /// Replaces an item as a copy, which schedules nothing.
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag) async throws -> ItemVersion {
        try await update(href: href, data: data, ifMatch: etag, as: .copy)
    }

    /// Deletes an item as a copy's deletion, which cancels nothing.
    public func delete(href: ItemHref, ifMatch etag: ItemETag) async throws {
        try await delete(href: href, ifMatch: etag, as: .copy)
    }

    /// None: a storage has no capability it does not declare.
    public var capabilities: StorageCapabilities { StorageCapabilities() }
}

/// An opaque marker of a storage's state, kept in the journal between runs
/// (a sync-token, a ctag, a directory signature).
public struct ChangeToken: Sendable, Hashable, Codable {
    /// The token's text, opaque to all but the storage that made it.
    public var value: String
    /// The token whose text is `value`.
    public init(_ value: String) { self.value = value }
}

/// An item's address and version.
public struct ItemVersion: Sendable, Hashable, Codable {
    /// Where the item is.
    public var href: ItemHref
    /// The version it is at.
    public var etag: ItemETag
    /// The version `etag` of the item at `href`.
    public init(href: ItemHref, etag: ItemETag) {
        self.href = href
        self.etag = etag
    }
}

/// An item's bytes with the version they were read at.
public struct StoredItem: Sendable, Hashable {
    /// Where the item is and which version was read.
    public var version: ItemVersion
    /// The item's bytes: an iCalendar object.
    public var data: Data
    /// Where the item is.
    public var href: ItemHref { version.href }
    /// The version the bytes were read at.
    public var etag: ItemETag { version.etag }
    /// The bytes `data` read at `version`.
    public init(version: ItemVersion, data: Data) {
        self.version = version
        self.data = data
    }
}

/// The answer to `CalendarStorage.changes(since:)`.
public enum StorageChanges: Sendable, Equatable {
    /// Nothing changed since the token given.
    case unchanged(ChangeToken)
    /// Every item there is now (the token was nil, unknown or expired).
    case full([ItemVersion], token: ChangeToken?)
    /// Only what changed since the token: new or modified items, and hrefs removed.
    case delta(changed: [ItemVersion], removed: [ItemHref], token: ChangeToken?)
}

/// Why a storage refused an operation. Transport failures are the storage's own errors.
public enum StorageError: Error, Sendable, Equatable {
    /// The item changed since it was read (HTTP 412, or a different stat signature).
    case preconditionFailed(href: ItemHref)
    /// An item with that href already exists.
    case alreadyExists(href: ItemHref)
    /// The storage refused the content (a server's 403/415 on a PUT), with its reason.
    case rejected(href: ItemHref, reason: String)
    /// The account may not write there at all (a calendar shared read-only whose server did not
    /// say so when it was listed), with the server's reason.
    case notPermitted(href: ItemHref, reason: String)
}
