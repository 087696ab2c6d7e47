import Crypto
import Foundation
import ICalendar

/// A SHA-256 of an item's normalised content: two versions with the same hash mean the same
/// thing, even when a server rewrote what was uploaded.
///
/// What does not count: PRODID and DTSTAMP (servers and clients restamp them), line folding
/// and line endings, the order of properties within a component and of sibling components,
/// and TEXT escaping variants, and the time zones the upload form completes: a VCALENDAR is
/// hashed as `TimeZoneCompletion` completes it, so a file that names `Europe/Berlin` (or
/// `W. Europe Standard Time`) without a VTIMEZONE hashes as its server copy, which has the
/// IANA name and a generated VTIMEZONE; and the scheduling parameters a server keeps on an
/// organizer and its attendees (`SCHEDULE-STATUS`, `SCHEDULE-AGENT`), which it adds or a copy
/// carries without a change in what the meeting is. An item that does not parse is hashed over its raw bytes
/// (prefixed `raw:`), so it is still carried and compared, just byte for byte.
///
/// An item a first pull copies into an empty folder is recorded with a *pending* hash
/// (prefixed `pending:`, ``pending(for:)``): an identity of its exact bytes, made in a
/// fraction of the normalised hash's cost, which stands in for it until a side of the item
/// changes; the run that sees the change makes the normalised hash from the journal's base
/// (the bytes copied) before it compares
/// (``SyncEngine/settlingPendingHashes(_:local:remote:journal:)``). Most of a calendar is
/// never changed again after the first pull.
///
/// A hash in the canonical text form (64 lowercase hex digits, after `raw:`, `pending:` or
/// nothing) is held as its 32 bytes, inline: as text it took 112 bytes of heap for each item a
/// run holds (a takeover holds every local item). Any other text (a test's made-up hash, say)
/// is kept as it is; two hashes are equal exactly when their texts are.
public struct ContentHash: Hashable, Sendable, Codable, CustomStringConvertible {
    private var storage: Storage

    /// The hash as text, as the journal stores it.
    public var value: String {
        get { storage.text }
        set { storage = Storage(newValue) }
    }
    /// The hash whose text is `value` (kept as 32 bytes when it is a SHA-256 in hex).
    public init(_ value: String) { storage = Storage(value) }
    /// The hash as text.
    public var description: String { value }

    private enum CodingKeys: String, CodingKey { case value }
    /// Reads the keyed form `{"value": text}`.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .value))
    }
    /// Writes the keyed form `{"value": text}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
    }

    /// What a 32-byte digest is of, and so what its text starts with and how the journal marks it.
    enum Form: Hashable, Sendable, CaseIterable {
        /// The item's normalised content: the hash proper.
        case normalised
        /// The bytes of an item that does not parse.
        case raw
        /// The exact bytes of an item copied at a first pull, the normalised hash still to make.
        case pending

        /// What the text form starts with.
        var prefix: String {
            switch self {
            case .normalised: ""
            case .raw: "raw:"
            case .pending: "pending:"
            }
        }

        /// The byte before the digest in the journal's BLOB (none for the hash proper).
        var storedMark: UInt8? {
            switch self {
            case .normalised: nil
            case .raw: UInt8(ascii: "r")
            case .pending: UInt8(ascii: "p")
            }
        }
    }

    /// A digest as 32 bytes with what it is of, or any other text.
    private enum Storage: Hashable, Sendable {
        case digest(Digest, form: Form)
        case text(String)

        init(_ text: String) {
            let form = Form.allCases.last { text.hasPrefix($0.prefix) }!
            if let digest = Digest(hex: text.utf8.dropFirst(form.prefix.utf8.count)) {
                self = .digest(digest, form: form)
            } else {
                self = .text(text)
            }
        }

        var text: String {
            switch self {
            case .digest(let digest, let form): form.prefix + digest.hex
            case .text(let text): text
            }
        }
    }

    /// What the hash's digest is of; nil for a hash kept as other text.
    var form: Form? {
        if case .digest(_, let form) = storage { form } else { nil }
    }

    /// True for a first pull's stand-in (``pending(for:)``), whose normalised hash is still to make.
    public var isPending: Bool { form == .pending }

    /// 32 bytes as four big-endian words, so that their hex text reads as the bytes do.
    private struct Digest: Hashable, Sendable {
        let w0, w1, w2, w3: UInt64

        init(bytes: some ContiguousBytes) {
            (w0, w1, w2, w3) = bytes.withUnsafeBytes { buffer in
                func word(_ i: Int) -> UInt64 {
                    UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
                }
                return (word(0), word(1), word(2), word(3))
            }
        }

        /// The digest written as 64 lowercase hex digits; nil for any other text.
        init?(hex: Substring.UTF8View) {
            guard hex.count == 64 else { return nil }
            var digits = hex.makeIterator()
            func word() -> UInt64? {
                var word: UInt64 = 0
                for _ in 0..<16 {
                    switch digits.next() {
                    case let d? where d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9"):
                        word = word << 4 | UInt64(d - UInt8(ascii: "0"))
                    case let d? where d >= UInt8(ascii: "a") && d <= UInt8(ascii: "f"):
                        word = word << 4 | UInt64(d - UInt8(ascii: "a") + 10)
                    default: return nil
                    }
                }
                return word
            }
            guard let w0 = word(), let w1 = word(), let w2 = word(), let w3 = word() else { return nil }
            (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
        }

        var hex: String {
            withUnsafeBytes(of: (w0.bigEndian, w1.bigEndian, w2.bigEndian, w3.bigEndian)) { ContentHash.hex($0) }
        }
    }

    /// Calls `body` with the hash's text as UTF-8: a SHA-256's written on the stack, no string
    /// made (the journal stores the text of every item's hash, twice for a first pull's item).
    func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch storage {
        case .text(var text):
            return try text.withUTF8(body)
        case .digest(let digest, let form):
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 72) { buffer in
                var count = 0
                for byte in form.prefix.utf8 {
                    buffer[count] = byte
                    count += 1
                }
                withUnsafeBytes(
                    of: (digest.w0.bigEndian, digest.w1.bigEndian, digest.w2.bigEndian, digest.w3.bigEndian)
                ) {
                    for byte in $0 {
                        buffer[count] = Self.hexDigit(byte >> 4)
                        buffer[count + 1] = Self.hexDigit(byte & 0x0F)
                        count += 2
                    }
                }
                return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }

    /// Calls `body` with the hash as the journal stores it: a SHA-256 as its 32 bytes (33 for
    /// a `raw:` one, the first byte `r`, and for a `pending:` one, the first byte `p`); nil for
    /// any other text, which is stored as text.
    func withStoredBytes<R>(_ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        guard case .digest(let digest, let form) = storage else { return try body(nil) }
        let words = (digest.w0.bigEndian, digest.w1.bigEndian, digest.w2.bigEndian, digest.w3.bigEndian)
        guard let mark = form.storedMark else { return try withUnsafeBytes(of: words) { try body($0) } }
        return try withUnsafeTemporaryAllocation(byteCount: 33, alignment: 1) { buffer in
            buffer[0] = mark
            withUnsafeBytes(of: words) { UnsafeMutableRawBufferPointer(rebasing: buffer[1...]).copyMemory(from: $0) }
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The hash the journal stored as `bytes` (``withStoredBytes(_:)``); nil when they are
    /// neither 32 bytes nor 33 after a form's mark.
    init?(storedBytes bytes: UnsafeRawBufferPointer) {
        switch bytes.count {
        case 32: storage = .digest(Digest(bytes: bytes), form: .normalised)
        case 33:
            guard let form = Form.allCases.first(where: { $0.storedMark == bytes[0] }) else { return nil }
            storage = .digest(Digest(bytes: UnsafeRawBufferPointer(rebasing: bytes[1...])), form: form)
        default: return nil
        }
    }

    /// A lowercase hex digit for `d` (0 to 15).
    private static func hexDigit(_ d: UInt8) -> UInt8 { d < 10 ? UInt8(ascii: "0") + d : UInt8(ascii: "a") + d - 10 }

    /// The hash of a SHA-256 `digest`, its text prefixed `raw:` when `raw`.
    init(digest: some ContiguousBytes, raw: Bool) {
        storage = .digest(Digest(bytes: digest), form: raw ? .raw : .normalised)
    }

    /// A 32-byte `digest` of the given form.
    init(digest: some ContiguousBytes, form: Form) {
        storage = .digest(Digest(bytes: digest), form: form)
    }

    /// True for the properties that servers and clients rewrite without a change in meaning:
    /// PRODID and DTSTAMP (compared, not hashed: a set's lookup hashed every property's name).
    static func isVolatile(_ name: String) -> Bool { name == "PRODID" || name == "DTSTAMP" }

    /// The parameters a scheduling server keeps on an organizer and attendees for itself:
    /// `SCHEDULE-STATUS` (what it did with the last message) and `SCHEDULE-AGENT` (who sends
    /// them; calgw sets CLIENT on copies for a server that would invite for them).
    static let schedulingParameters = ["SCHEDULE-AGENT", "SCHEDULE-STATUS"]

    /// Whether an ORGANIZER or ATTENDEE in `component`, or in what it holds, has a
    /// scheduling parameter (read only: most items have none, and are not copied to check).
    static func holdsSchedulingParameters(_ component: Component) -> Bool {
        component.properties.contains {
            ($0.name == "ATTENDEE" || $0.name == "ORGANIZER") && $0.parameterText.containsUTF8("SCHEDULE-")
        }
            || component.components.contains(where: holdsSchedulingParameters)
    }

    /// Removes `schedulingParameters` from the ORGANIZER and ATTENDEE properties of `component`
    /// and all it holds.
    static func dropSchedulingParameters(_ component: inout Component) {
        for i in component.properties.indices
        where component.properties[i].name == "ATTENDEE" || component.properties[i].name == "ORGANIZER" {
            guard component.properties[i].parameterText.containsUTF8("SCHEDULE-") else { continue }
            for name in schedulingParameters { component.properties[i].setParameter(name, nil) }
        }
        for i in component.components.indices { dropSchedulingParameters(&component.components[i]) }
    }

    /// The hash of `data`.
    public static func of(_ data: Data) -> ContentHash {
        of(data, parsed: try? ICalendarParser().parse(data))
    }

    /// The hash of `data`, reusing a parse already made (nil: the data did not parse).
    public static func of(_ data: Data, parsed: ParsedCalendar?) -> ContentHash {
        guard let parsed, !parsed.components.isEmpty else {
            return ContentHash(digest: SHA256.hash(data: data), raw: true)
        }
        return ofParse(parsed.components) ?? ofRewrittenTree(parsed.components)
    }

    /// The hash of parsed components written straight from the parse, canonical values taken
    /// as each line is written: nearly every item's way, with no copy of its tree. Nil when a
    /// component needs its tree rewritten first (time zones to complete, scheduling parameters
    /// to drop) or holds text from U+0300 on; ``ofRewrittenTree(_:)`` hashes those, to the same
    /// value as this would (`ContentHashTests` compares the two over the corpora).
    static func ofParse(_ components: [Component]) -> ContentHash? {
        var writer = NormalisedWriter(canonicalizing: true)
        for component in components {
            if component.name == "VCALENDAR", TimeZoneCompletion.hasUndefinedTZIDs(in: component) { return nil }
            if holdsSchedulingParameters(component) { return nil }
            guard writer.write(component) else { return nil }
        }
        return ofWritten(writer)
    }

    /// The hash of what `writer` wrote: its components in byte order, each followed by a line end.
    static func ofWritten(_ writer: borrowing NormalisedWriter) -> ContentHash {
        var hasher = SHA256()
        let bytes = writer.bytes.contents
        var blocks = writer.roots
        if blocks.count > 1 { blocks.sort { precedes(bytes, $0, $1) } }
        for block in blocks {
            hasher.update(bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[block])))
            withUnsafeBytes(of: UInt8(ascii: "\n")) { hasher.update(bufferPointer: $0) }
        }
        return ContentHash(digest: hasher.finalize(), raw: false)
    }

    /// The hash of parsed components by copies of their trees made canonical, their time zones
    /// completed and their scheduling parameters dropped, as the hash is defined.
    static func ofRewrittenTree(_ parsedComponents: [Component]) -> ContentHash {
        var hasher = SHA256()
        let canonical = Canonicalizer()
        let components = parsedComponents.map { component -> Component in
            var c = canonical.canonicalize(component)
            if c.name == "VCALENDAR" { TimeZoneCompletion.complete(&c) }
            if holdsSchedulingParameters(c) { dropSchedulingParameters(&c) }
            return c
        }
        let blocks = components.compactMap(normalisedBytes)
        if blocks.count == components.count {
            for block in blocks.sorted(by: precedes) {
                hasher.update(data: block)
                withUnsafeBytes(of: UInt8(ascii: "\n")) { hasher.update(bufferPointer: $0) }
            }
            return ContentHash(digest: hasher.finalize(), raw: false)
        }
        for var line in components.map(normalisedLines).sorted() {
            line.append("\n")
            line.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return ContentHash(digest: hasher.finalize(), raw: false)
    }

    /// A component as sorted lines: its properties (minus the volatile ones) then each child
    /// as one nested block, so order does not matter but structure does.
    static func normalisedLines(_ component: Component) -> String {
        // Built by appending into strings of their final size, not by interpolating and
        // joining (which showed in a first pull's profile); the text is the same.
        var lines: [String] = []
        lines.reserveCapacity(component.properties.count)
        var size = 0
        for property in component.properties where !isVolatile(property.name) {
            let parameters = property.parameterText
            var line = property.name
            line.reserveCapacity(line.utf8.count + parameters.utf8.count + property.value.utf8.count + 2)
            if !parameters.isEmpty {
                line += ";"
                line += parameters
            }
            line += ":"
            line += property.value
            size += line.utf8.count + 1
            lines.append(line)
        }
        lines.sort()
        let children = component.components.map(normalisedLines).sorted()
        var text = "BEGIN:" + component.name + "\n"
        text.reserveCapacity(
            text.utf8.count + size + 1 + children.reduce(0) { $0 + $1.utf8.count } + component.name.utf8.count + 5)
        for (i, line) in lines.enumerated() {
            if i > 0 { text += "\n" }
            text += line
        }
        text += "\n"
        for child in children { text += child }
        text += "END:" + component.name + "\n"
        return text
    }

    /// The bytes as lowercase hex digits.
    static func hex(_ digest: some ContiguousBytes) -> String {
        digest.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: 2 * bytes.count) { out in
                for (i, byte) in bytes.enumerated() {
                    out[2 * i] = hexDigit(byte >> 4)
                    out[2 * i + 1] = hexDigit(byte & 0x0F)
                }
                return 2 * bytes.count
            }
        }
    }
}
