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
    /// What kinds of object it holds (for a pair's `item_types`); empty when not read.
    public var kinds: ComponentKinds = []

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
        if let plain = Self.readPlainly(data) {
            self = plain
        } else {
            self.init(data, inspecting: { _ in })
        }
    }

    /// Reads `data` as a first pull copies it into an empty folder: all but the hash proper,
    /// for which the pending stand-in of its bytes is kept (``ContentHash/pending(for:)``). An
    /// item without a UID is keyed by its hash proper, so it gets that hash.
    public init(pendingHashOf data: Data) {
        guard let plain = Self.readPlainlyPending(data) else {
            self.init(data, inspecting: { _ in })
            if parses, uid != nil { hash = .pending(for: data) }
            return
        }
        if plain.uid != nil { self = plain } else { self.init(data) }
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
        uid = nil; lastModified = nil; sequence = 0
        readOutline(calendar)
    }

    /// Takes the UID, LAST-MODIFIED, SEQUENCE and span from `calendar`: from the objects in a
    /// VCALENDAR (its VTIMEZONEs aside), else from the component itself. Only the properties of
    /// the objects are read, so an outline of them (``PlainItemReader``) reads as the tree.
    mutating func readOutline(_ calendar: Component) {
        var found = Found()
        if calendar.name == "VCALENDAR" {
            for object in calendar.components where object.name != "VTIMEZONE" { found.read(object) }
        } else {
            found.read(calendar)
        }
        uid = found.uid
        lastModified = found.lastModified
        sequence = found.sequence ?? 0
        span = calendar.name == "VCALENDAR" ? TimeSpan.of(calendar) : .unbounded
        kinds = ComponentKinds.of(calendar)
    }

    /// The UID, LAST-MODIFIED and SEQUENCE of an object's components, read in place: a
    /// property looked up by name is a copy of it, which over every item showed in a first
    /// pull's profile.
    private struct Found {
        /// The first UID that is not empty (trimmed of spaces).
        var uid: String?
        /// The latest LAST-MODIFIED (trimmed of spaces).
        var lastModified: String?
        /// The highest SEQUENCE that reads as a number.
        var sequence: Int?

        mutating func read(_ object: Component) {
            let properties = object.properties
            // The first of each, found in one pass.
            var uidAt: Int?, lastModifiedAt: Int?, sequenceAt: Int?
            for i in properties.indices {
                let name = properties[i].name
                if uidAt == nil, name.isName("UID") {
                    uidAt = i
                } else if lastModifiedAt == nil, name.isName("LAST-MODIFIED") {
                    lastModifiedAt = i
                } else if sequenceAt == nil, name.isName("SEQUENCE") {
                    sequenceAt = i
                }
            }
            if uid == nil, let i = uidAt {
                let value = properties[i].value.trimmedOfSpaces
                if !value.isEmpty { uid = value }
            }
            if let i = lastModifiedAt {
                let value = properties[i].value.trimmedOfSpaces
                lastModified = lastModified.map { max($0, value) } ?? value
            }
            if let i = sequenceAt, let value = properties[i].integer {
                sequence = sequence.map { max($0, value) } ?? value
            }
        }
    }

    /// What a scanned item is, taken from it instead of its bytes; nil for a UID-less item
    /// (its key is not its UID).
    init?(of item: SideItem) {
        guard !item.key.isUIDLess else { return nil }
        self.init(uid: item.key.value, hash: item.hash, lastModified: item.lastModified, sequence: item.sequence)
        span = item.span
        kinds = item.kinds
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
