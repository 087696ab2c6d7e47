import Foundation
import ICalendar

/// What sync needs to know about an item's bytes: its UID, normalised hash, and the
/// LAST-MODIFIED and SEQUENCE that `newest` compares. Computed once per read.
public struct ItemContent: Sendable, Hashable {
    /// The UID of the object's first component that has one (VTIMEZONE aside); nil when none has.
    public var uid: String?
    /// The hash of the normalised content, which tells whether two versions mean the same.
    public var hash: ContentHash
    /// LAST-MODIFIED in UTC as `yyyyMMddTHHmmssZ` text (sorts by time), nil when absent.
    public var lastModified: String?
    /// The highest SEQUENCE of the object's components; 0 when none has one.
    public var sequence: Int
    /// False when the bytes are not iCalendar calgw can parse: such an item is reported and
    /// left alone.
    public var parses: Bool
    /// When the object takes place (for windowed sync).
    public var span: TimeSpan = .unbounded

    /// Content described directly, without bytes to read.
    public init(uid: String?, hash: ContentHash, lastModified: String? = nil, sequence: Int = 0, parses: Bool = true) {
        self.uid = uid
        self.hash = hash
        self.lastModified = lastModified
        self.sequence = sequence
        self.parses = parses
    }

    /// Reads `data`.
    public init(_ data: Data) {
        self.init(data, inspecting: { _ in })
    }

    /// Reads `data`, and shows its parse (nil: it does not parse) to `inspect`, so that a
    /// caller with more to check of it does not parse it twice.
    init(_ data: Data, inspecting inspect: (ParsedCalendar?) -> Void) {
        let parsed = try? ICalendarParser().parse(data)
        inspect(parsed)
        hash = ContentHash.of(data, parsed: parsed)
        guard let parsed, let calendar = parsed.calendar else {
            uid = nil; lastModified = nil; sequence = 0; parses = false
            return
        }
        parses = true
        let objects = calendar.name == "VCALENDAR" ? calendar.components.filter { $0.name != "VTIMEZONE" } : [calendar]
        uid = objects.lazy.compactMap { $0["UID"]?.value.trimmedOfSpaces }.first { !$0.isEmpty }
        lastModified = objects.compactMap { $0["LAST-MODIFIED"]?.value.trimmedOfSpaces }.max()
        sequence = objects.compactMap { $0["SEQUENCE"]?.integer }.max() ?? 0
        span = calendar.name == "VCALENDAR" ? TimeSpan.of(calendar) : .unbounded
    }

    /// What a scanned item is, taken from it instead of its bytes; nil for a UID-less item
    /// (its key is not its UID).
    init?(of item: SideItem) {
        guard !item.key.isUIDLess else { return nil }
        self.init(uid: item.key.value, hash: item.hash, lastModified: item.lastModified, sequence: item.sequence)
        span = item.span
    }

    /// The item's key: its UID, else the UID-less key from its hash.
    public var key: ItemKey { uid.map(ItemKey.uid) ?? .uidless(hash) }
}

private extension String {
    /// The value without leading and trailing spaces (`CharacterSet.whitespaces`), itself when
    /// it starts and ends with a visible ASCII character, as nearly every UID does.
    var trimmedOfSpaces: String {
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last,
            (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last)
        else { return trimmingCharacters(in: .whitespaces) }
        return self
    }
}
