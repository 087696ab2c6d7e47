import Foundation

/// Which side of a pair.
public enum Side: String, Sendable, Hashable, Codable, CaseIterable {
    case local, remote

    /// The side across from this one.
    public var other: Side { self == .local ? .remote : .local }
}

/// What the journal remembers of one side of an item at the last sync.
public struct SideRecord: Sendable, Hashable, Codable {
    /// Where the item is on that side.
    public var href: ItemHref
    /// The version of it that was synced.
    public var etag: ItemETag
    /// The hash of its content then.
    public var hash: ContentHash
    /// A side's record of `href` at `etag`, whose content hashed to `hash`.
    public init(href: ItemHref, etag: ItemETag, hash: ContentHash) {
        self.href = href
        self.etag = etag
        self.hash = hash
    }
}

/// One item as the journal knows it: present on both sides at the last sync, with the
/// content they agreed on (the merge base, loaded only when a conflict needs it).
public struct JournalItem: Sendable, Hashable {
    /// The item's identity across both sides.
    public var key: ItemKey
    /// The local side's record.
    public var local: SideRecord
    /// The remote side's record.
    public var remote: SideRecord
    /// The LAST-MODIFIED synced (UTC, `yyyyMMddTHHmmssZ`), nil when absent; `newest` compares it.
    public var lastModified: String?
    /// The SEQUENCE synced; `newest` compares it.
    public var sequence: Int
    /// When the item takes place, for windowed sync.
    public var span: TimeSpan = .unbounded

    /// The journal's knowledge of `key` on both sides.
    public init(
        key: ItemKey, local: SideRecord, remote: SideRecord, lastModified: String? = nil, sequence: Int = 0,
        span: TimeSpan = .unbounded
    ) {
        self.span = span
        self.key = key
        self.local = local
        self.remote = remote
        self.lastModified = lastModified
        self.sequence = sequence
    }

    /// The record of `side`.
    public func record(_ side: Side) -> SideRecord { side == .local ? local : remote }
}

/// Per side of a pair: the change token of the last complete scan and the collection's
/// display name and color as last synced.
public struct CollectionState: Sendable, Hashable {
    /// The change token of the last complete scan; nil when the side gives none or was never
    /// scanned.
    public var token: ChangeToken?
    /// The collection's display name as last synced.
    public var displayName: String?
    /// The collection's color as last synced.
    public var color: String?
    /// A collection's state; empty unless given.
    public init(token: ChangeToken? = nil, displayName: String? = nil, color: String? = nil) {
        self.token = token
        self.displayName = displayName
        self.color = color
    }
}
