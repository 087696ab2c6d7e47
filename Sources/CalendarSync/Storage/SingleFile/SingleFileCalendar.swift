import Crypto
import Foundation
import VDir

/// A single-file calendar as items: what ``SingleFileStorage`` lists, reads and rewrites.
///
/// The file's components are grouped by UID, so a recurring series (its master and every
/// override with a RECURRENCE-ID) is one item, as it is one resource on a CalDAV server. Each
/// item is seen as a calendar object of its own (``Item/view``): a fixed VCALENDAR wrapper, the
/// VTIMEZONEs its components refer to, then its components, as written in the file.
///
/// - An item's href is `<uid>.ics` (the name a vdir gives it, ``SafeFileName``), so it is the
///   same on every read whatever moved in the file; a component without a UID is an item of its
///   own named `nouid-<hash>.ics` after its content (until a sync that sends it writes a UID
///   into it, as it does into a vdir file: ``MissingUID``).
/// - Its etag is a hash of its view's bytes: an edit anywhere else in the file leaves it alone.
/// - VTODO, VJOURNAL and components calgw does not know are items like events, and the
///   calendar's own properties (X-WR-CALNAME, METHOD, …) stay in the file, never in an item.
struct SingleFileCalendar: Sendable {
    /// One item: a UID's components.
    struct Item: Sendable {
        var href: ItemHref
        var uid: String?
        /// The components, each as bytes from BEGIN through END.
        var components: [Data]
        /// The TZIDs its components use that the file defines, sorted.
        var zones: [String]
        var etag: ItemETag
        /// The file line of each component's BEGIN, 0 for one written since the file was read.
        var lines: [Int]
    }

    /// The VCALENDAR's own property lines.
    var header: Data
    /// VTIMEZONE bytes by TZID, and the TZIDs in file order.
    var zones: [String: Data] = [:]
    var zoneOrder: [String] = []
    /// The file line of each VTIMEZONE's BEGIN.
    var zoneLines: [String: Int] = [:]
    /// Items by href, and the hrefs in file order (an href removed stays in `order`, skipped
    /// when the file is joined, so a removal costs no search).
    var items: [ItemHref: Item] = [:]
    var order: [ItemHref] = []
    var ordered: Set<ItemHref> = []

    /// The header of a file calgw creates.
    static let newHeader = Data("VERSION:2.0\r\nPRODID:-//calgw//single file//EN\r\n".utf8)
    /// How each item's view begins and ends.
    static let viewHead = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//single file//EN\r\n".utf8)
    static let viewTail = Data("END:VCALENDAR\r\n".utf8)

    /// An empty calendar (a file not there yet).
    init() { header = Self.newHeader }

    /// The calendar of a split file.
    ///
    /// A component repeated byte for byte (an event exported twice) is kept once. Two
    /// different ones for one UID and occurrence (a master copied and edited without a new
    /// UID) cannot be one calendar object: that is an error at the second one's line.
    /// - Throws: ``SingleFileError`` (`.invalid`) for such a pair; `path` names the file.
    init(_ contents: SingleFileSplitter.Contents, path: String) throws {
        header = contents.header.isEmpty ? Self.newHeader : contents.header
        var byUID: [String: Int] = [:]
        var groups: [(uid: String?, parts: [SingleFileSplitter.Part])] = []
        for part in contents.parts {
            if part.name == "VTIMEZONE", let tzid = part.tzid {
                if zones[tzid] == nil {
                    zoneOrder.append(tzid)
                    zones[tzid] = part.bytes
                    zoneLines[tzid] = part.line
                }
                continue
            }
            if let uid = part.uid {
                if let index = byUID[uid] {
                    if let twin = groups[index].parts.first(where: {
                        $0.name == part.name && $0.recurrenceID == part.recurrenceID
                    }) {
                        if twin.bytes == part.bytes { continue }
                        let which = part.recurrenceID.map { "for RECURRENCE-ID \($0)" } ?? "without a RECURRENCE-ID"
                        throw SingleFileError(
                            .invalid,
                            "\(path):\(part.line): a second \(part.name) with UID \(uid) \(which) (the first is at line \(twin.line))",
                            recovery:
                                "give one of them a new UID, or delete the copy; until then nothing is synced either way"
                        )
                    }
                    groups[index].parts.append(part)
                    continue
                }
                byUID[uid] = groups.count
            }
            groups.append((part.uid, [part]))
        }
        for group in groups {
            let item = makeItem(uid: group.uid, parts: group.parts)
            guard items[item.href] == nil else { continue }  // two UID-less copies of one component: one item
            items[item.href] = item
            order.append(item.href)
            ordered.insert(item.href)
        }
    }

    /// An item of `parts` (one UID's components), with its href and etag.
    func makeItem(uid: String?, parts: [SingleFileSplitter.Part]) -> Item {
        let used = parts.reduce(into: Set<String>()) { $0.formUnion($1.usedZones) }
        var item = Item(
            href: "", uid: uid, components: parts.map(\.bytes), zones: used.filter { zones[$0] != nil }.sorted(),
            etag: "", lines: parts.map(\.line))
        var hasher = SHA256()
        forEachViewPiece(of: item) { hasher.update(data: $0) }
        item.etag = ItemETag(String(ContentHash.hex(hasher.finalize()).prefix(40)))
        if let uid {
            item.href = ItemHref(SafeFileName.fileName(forUID: uid))
        } else {
            // As the executor names a UID-less item: after the hash of its content.
            item.href = ItemHref("nouid-" + ContentHash.of(view(of: item)).value.prefix(32) + ".ics")
        }
        return item
    }

    /// Calls `body` with each piece of `item`'s view in order.
    func forEachViewPiece(of item: Item, _ body: (Data) -> Void) {
        body(Self.viewHead)
        for zone in item.zones { if let bytes = zones[zone] { body(bytes) } }
        for component in item.components { body(component) }
        body(Self.viewTail)
    }

    /// The file line that line `viewLine` of `item`'s view comes from; nil for the wrapper's
    /// lines and for what was written since the file was read.
    func fileLine(ofViewLine viewLine: Int, in item: Item) -> Int? {
        func lineCount(_ data: Data) -> Int { data.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } }
        var start = 1 + lineCount(Self.viewHead)
        for zone in item.zones {
            guard let bytes = zones[zone] else { continue }
            let n = lineCount(bytes)
            if viewLine >= start, viewLine < start + n {
                return zoneLines[zone].flatMap { $0 > 0 ? $0 + viewLine - start : nil }
            }
            start += n
        }
        for (component, line) in zip(item.components, item.lines) {
            let n = lineCount(component)
            if viewLine >= start, viewLine < start + n { return line > 0 ? line + viewLine - start : nil }
            start += n
        }
        return nil
    }

    /// `item` as a calendar object of its own.
    func view(of item: Item) -> Data {
        var data = Data()
        forEachViewPiece(of: item) { data.append($0) }
        return data
    }

    /// Takes the VTIMEZONEs of a calendar object written to the file (a zone the file defines
    /// already keeps the file's definition) and makes its other components an item.
    mutating func item(from data: Data, path: String) throws -> Item {
        let contents = try SingleFileSplitter(path: path).split(data)
        var parts: [SingleFileSplitter.Part] = []
        for part in contents.parts {
            if part.name == "VTIMEZONE", let tzid = part.tzid {
                if zones[tzid] == nil {
                    zones[tzid] = part.bytes
                    zoneOrder.append(tzid)
                }
            } else {
                var part = part
                part.line = 0
                parts.append(part)
            }
        }
        return makeItem(uid: parts.first { $0.uid != nil }?.uid, parts: parts)
    }

    /// Puts `item` in at its href: in its place for an href the file had (an update keeps its
    /// place in the file), else at the end.
    mutating func put(_ item: Item) {
        if !ordered.contains(item.href) {
            order.append(item.href)
            ordered.insert(item.href)
        }
        items[item.href] = item
    }

    /// Removes the item at `href`.
    mutating func remove(_ href: ItemHref) {
        items.removeValue(forKey: href)
    }

    /// The whole file: the VCALENDAR with its own properties, every VTIMEZONE, then the items
    /// in file order.
    func joined() -> Data {
        var data = Data("BEGIN:VCALENDAR\r\n".utf8)
        data.append(header)
        for tzid in zoneOrder { if let bytes = zones[tzid] { data.append(bytes) } }
        for href in order { for component in items[href]?.components ?? [] { data.append(component) } }
        data.append(Self.viewTail)
        return data
    }

    /// Every item's version, sorted by href.
    var listing: [ItemVersion] {
        items.values.map { ItemVersion(href: $0.href, etag: $0.etag) }.sorted { $0.href < $1.href }
    }
}
