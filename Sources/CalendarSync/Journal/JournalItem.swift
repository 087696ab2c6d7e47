import Foundation

/// Which side of a pair.
public enum Side: String, Sendable, Hashable, Codable, CaseIterable {
    case local, remote

    public var other: Side { self == .local ? .remote : .local }
}

/// What the journal remembers of one side of an item at the last sync.
public struct SideRecord: Sendable, Hashable, Codable {
    public var href: ItemHref
    public var etag: ItemETag
    public var hash: ContentHash
    public init(href: ItemHref, etag: ItemETag, hash: ContentHash) {
        self.href = href
        self.etag = etag
        self.hash = hash
    }
}

/// One item as the journal knows it: present on both sides at the last sync, with the
/// content they agreed on (the merge base, loaded only when a conflict needs it).
public struct JournalItem: Sendable, Hashable {
    public var key: ItemKey
    public var local: SideRecord
    public var remote: SideRecord
    public var lastModified: String?
    public var sequence: Int
    public var span: TimeSpan = .unbounded

    public init(key: ItemKey, local: SideRecord, remote: SideRecord, lastModified: String? = nil, sequence: Int = 0, span: TimeSpan = .unbounded) {
        self.span = span
        self.key = key
        self.local = local
        self.remote = remote
        self.lastModified = lastModified
        self.sequence = sequence
    }

    public func record(_ side: Side) -> SideRecord { side == .local ? local : remote }
}

/// Per side of a pair: the change token of the last complete scan and the collection's
/// display name and color as last synced.
public struct CollectionState: Sendable, Hashable {
    public var token: ChangeToken?
    public var displayName: String?
    public var color: String?
    public init(token: ChangeToken? = nil, displayName: String? = nil, color: String? = nil) {
        self.token = token
        self.displayName = displayName
        self.color = color
    }
}
