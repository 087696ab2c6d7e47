import Foundation

/// The local items a first pull matches the server's against, packed: each item's key, its
/// fixed parts (hash, span, sequence) in a record, and the text of its href, etag and
/// LAST-MODIFIED in one byte buffer. A takeover holds every local item for the whole pull: as
/// `SideItem`s, 144 bytes each and an allocation for every href and LAST-MODIFIED longer than
/// 15 bytes (208 bytes an item at 1,000,000 one-event files); packed, about 120. An item is
/// made a `SideItem` again when it is asked for, with its bytes when it had them.
struct PackedItems {
    /// An item's fixed parts, and where its text is.
    private struct Record {
        var hash: ContentHash
        var span: TimeSpan
        var sequence: Int
        /// Where the href, then the etag, then LAST-MODIFIED start in `text`.
        var textStart: Int
        var hrefLength: UInt32
        var etagLength: UInt32
        /// `UInt32.max` when the item has no LAST-MODIFIED.
        var lastModifiedLength: UInt32
    }

    private(set) var keys: [ItemKey] = []
    private var records: [Record] = []
    private var text: [UInt8] = []
    /// The bytes of the items that kept them (a side whose bytes a first sync keeps), by position.
    private var data: [Int: Data] = [:]

    /// No items yet, with room for `count` of them and `textLength` bytes of their text.
    init(capacity count: Int = 0, textLength: Int = 0) {
        keys.reserveCapacity(count)
        records.reserveCapacity(count)
        text.reserveCapacity(textLength)
    }

    var count: Int { keys.count }

    /// Adds `item` at the end.
    mutating func append(_ item: SideItem) {
        let start = text.count
        text += item.href.value.utf8
        text += item.etag.value.utf8
        if let lastModified = item.lastModified { text += lastModified.utf8 }
        if let bytes = item.data { data[keys.count] = bytes }
        keys.append(item.key)
        records.append(
            Record(
                hash: item.hash, span: item.span, sequence: item.sequence, textStart: start,
                hrefLength: UInt32(item.href.value.utf8.count), etagLength: UInt32(item.etag.value.utf8.count),
                lastModifiedLength: item.lastModified.map { UInt32($0.utf8.count) } ?? .max))
    }

    /// The hash of the item at `position`.
    func hash(at position: Int) -> ContentHash { records[position].hash }

    /// The item at `position`, as it was appended.
    subscript(position: Int) -> SideItem {
        let r = records[position]
        return text.withUnsafeBufferPointer { text in
            func string(_ start: Int, _ length: Int) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: text[start..<start + length]), as: UTF8.self)
            }
            let etagStart = r.textStart + Int(r.hrefLength)
            let lastModifiedStart = etagStart + Int(r.etagLength)
            return SideItem(
                key: keys[position], href: ItemHref(string(r.textStart, Int(r.hrefLength))),
                etag: ItemETag(string(etagStart, Int(r.etagLength))), hash: r.hash,
                lastModified: r.lastModifiedLength == .max ? nil : string(lastModifiedStart, Int(r.lastModifiedLength)),
                sequence: r.sequence, data: data[position], span: r.span)
        }
    }
}
