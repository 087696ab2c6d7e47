import Foundation

/// One item as a side has it now: where, which version, what it holds.
public struct SideItem: Sendable, Hashable {
    /// The item's identity across both sides.
    public var key: ItemKey
    /// Where the item is on this side.
    public var href: ItemHref
    /// The version the side has.
    public var etag: ItemETag
    /// The hash of its content.
    public var hash: ContentHash
    /// LAST-MODIFIED (UTC, `yyyyMMddTHHmmssZ`), nil when absent; `newest` compares it.
    public var lastModified: String?
    /// The highest SEQUENCE of its components; `newest` compares it.
    public var sequence: Int
    /// The bytes, when they were read in this run (items unchanged since the journal are not read).
    public var data: Data?
    /// When the item takes place (windowed sync).
    public var span: TimeSpan = .unbounded
    /// What kinds of object it holds, when the run read it (``ComponentKinds``); empty when not.
    public var kinds: ComponentKinds = []

    /// An item described directly.
    public init(
        key: ItemKey, href: ItemHref, etag: ItemETag, hash: ContentHash, lastModified: String? = nil, sequence: Int = 0,
        data: Data? = nil,
        span: TimeSpan = .unbounded
    ) {
        self.span = span
        self.key = key
        self.href = href
        self.etag = etag
        self.hash = hash
        self.lastModified = lastModified
        self.sequence = sequence
        self.data = data
    }

    /// An item read from `data` at `version`, keyed by its UID (or `key` when given); without
    /// its bytes when `data` is nil (an item set aside, planned later).
    public init(version: ItemVersion, data: Data? = nil, content: ItemContent, key: ItemKey? = nil) {
        self.init(
            key: key ?? content.key, href: version.href, etag: version.etag, hash: content.hash,
            lastModified: content.lastModified, sequence: content.sequence, data: data, span: content.span)
        kinds = content.kinds
    }

    /// What the journal records of this side of the item.
    public var record: SideRecord { SideRecord(href: href, etag: etag, hash: hash) }
}

/// Everything one side holds now, as the scan found it.
public struct SideSnapshot: Sendable {
    /// The items that parse.
    public var items: [SideItem]
    /// Items that do not parse: reported and left alone.
    public var unparseable: [ItemHref]
    /// The change token the scan ended with (saved when the run leaves nothing pending).
    public var token: ChangeToken?
    /// For unparseable vdir files broken by a hand edit: href → `path:line: problem`.
    public var problems: [ItemHref: String] = [:]
    /// The UIDs of the files in `problems` that parse (a blocking mistake such as an invalid
    /// RRULE or calendar address), by href: the server's copy of the same UID is then left
    /// alone too, instead of being copied over the file.
    public var problemKeys: [ItemHref: ItemKey] = [:]
    /// The vdir's folder when the side is one: reports then name files by their paths.
    public var folder: String?
    /// New files without a UID, set aside by a scan that is to give them one
    /// (``SideScanner/setsAsideMissingUIDs``); not in `items` until they have it.
    public var missingUID: [StoredItem] = []
    /// How many items the side holds when `items` is only a part of them (a plan narrowed to
    /// what changed); nil when `items` is all of them.
    public var population: Int?
    /// Positions in `items` by a digest of the item's bytes, when the scan was asked for them
    /// (``SideScanner/digestsBytes``); of two items with the same bytes, either.
    var itemsByBytes: [BytesDigest: Int32] = [:]

    /// True when the side holds no item at all (the mass-deletion guard's "emptied side").
    public var holdsNothing: Bool { (population ?? items.count) == 0 && unparseable.isEmpty }

    /// Where `href` is, for a report: the file's path in a vdir, else the href.
    public func location(_ href: ItemHref) -> String {
        guard let folder else { return href.value }
        return folder.hasSuffix("/") ? folder + href.value : folder + "/" + href.value
    }

    /// A snapshot of `items`, with what did not parse and the token the scan ended with.
    public init(items: [SideItem], unparseable: [ItemHref] = [], token: ChangeToken? = nil) {
        self.items = items
        self.unparseable = unparseable
        self.token = token
    }
}
