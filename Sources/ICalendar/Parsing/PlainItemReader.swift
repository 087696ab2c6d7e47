import Foundation

/// A content line of a plainly written item, as ``PlainItemReader`` hands it on. The bytes are
/// valid only during the call that receives the line.
public struct PlainLine {
    /// What the line does: opens a component, closes one, or is one of its properties; or,
    /// `repeated`, stands for a whole VTIMEZONE of the root whose bytes are those of one read
    /// before with the same scratch (in `slot`): its lines are not handed on again.
    public enum Kind: Sendable { case begin, end, property, repeated }

    public let kind: Kind
    /// The component's name for `begin` and `end`, the property's for `property` (upper
    /// case); empty for `repeated`.
    public let name: UnsafeBufferPointer<UInt8>
    /// The parameters in their canonical text (``Property/parameterText``); empty when none.
    public let parameterText: UnsafeBufferPointer<UInt8>
    /// The value as written, escapes intact; empty for `begin` and `end`.
    public let value: UnsafeBufferPointer<UInt8>
    /// What the pass that checked the value's UTF-8 saw of it, so that no one reads it again
    /// to learn it.
    public let valueFacts: ValueFacts
    /// For the `begin` of a VTIMEZONE of the root, the slot the reader remembers it in, where
    /// the visitor remembers what it makes of its lines (at its `end`); for `repeated`, the
    /// slot of the zone that came again. Nil otherwise.
    public let slot: Int?
}

/// What one pass over a value finds beside its being well-formed UTF-8.
public struct ValueFacts: Sendable {
    /// Whether a byte is a backslash, `;`, `,`, CR or LF: a value without any is canonical
    /// text as it is, whatever its type (`Canonicalizer` changes none).
    public internal(set) var mayNeedEscaping = false
    /// Whether a byte is 0xCC or above (a scalar from U+0300 on, whose text sorts as strings,
    /// not bytes).
    public internal(set) var hasByteFromCC = false
}

/// What ``PlainItemReader`` keeps of an item beside the lines it hands on.
public struct PlainItem {
    /// The root component with its direct children, each child holding only the properties
    /// the reader was asked to keep (and a VTIMEZONE its TZID); deeper components are left out.
    public var outline: Component
    /// The TZID of every property outside a VTIMEZONE that has one, in order.
    public var tzids: [String]
}

/// Reads an item straight from its bytes when every line of it is written plainly, handing
/// each content line on as bytes: no `Property`, no `String` per name and value, no tree.
///
/// A first pull reads every item only to hash it and to learn its UID, LAST-MODIFIED,
/// SEQUENCE and dates; the parser's tree cost most of that. What is plain here reads exactly
/// as ``ICalendarParser`` reads it: one root VCALENDAR, CRLF or LF line ends, folding with a
/// space or tab, blank lines, names in upper case of letters, digits and `-`, parameters
/// ``PlainParameters`` reads, values of well-formed UTF-8, balanced BEGIN and END without
/// parameters. Anything else (a byte-order mark, a lower-case name, Latin-1, a line without
/// a colon, a property outside the root, a second root) makes ``read(_:keeps:visit:)`` return
/// nil, and the caller parses the item: the parser mends and warns where this reader would
/// have to guess.
public enum PlainItemReader {
    /// How deep components may nest, as ``ICalendarParser/maximumDepth``.
    static let maximumDepth = 100

    /// The room a read works in: the buffer a folded line is joined in, the open components'
    /// names, a line's canonical parameters. A caller reading item after item hands the same
    /// one to each read, so that none allocates its own (a first pull reads every item). One
    /// read at a time.
    public final class Scratch {
        fileprivate var joined = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
        fileprivate var parameters = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
        fileprivate var names: [UInt8] = []
        fileprivate var starts: [Int] = []
        /// The parameters a TZID was last read from: kept from item to item, as the items of
        /// one calendar name the same few zones with the same parameters.
        fileprivate var lastZone: ZoneParameters?
        /// The VTIMEZONEs read last, to know them when they come again.
        fileprivate var zones = RememberedZones()

        public init() {
            names.reserveCapacity(64)
            starts.reserveCapacity(8)
        }

        deinit {
            joined.deallocate()
            parameters.deallocate()
        }

        /// The bytes its buffers hold room for.
        public var footprint: Int { joined.count + parameters.count + names.capacity + zones.footprint }

        /// `buffer` with room for `size` bytes (what it held is not kept).
        fileprivate static func room(_ buffer: inout UnsafeMutableBufferPointer<UInt8>, for size: Int) {
            guard buffer.count < size else { return }
            buffer.deallocate()
            buffer = .allocate(capacity: Swift.max(size, buffer.count * 2))
        }
    }

    /// Reads `bytes`, handing each content line to `visit` in order, and keeping in the outline
    /// each property of the root's children whose name `keeps` accepts; `scratch` is the room
    /// it works in. A scratch remembers the zones read in it as `keeps` kept them
    /// (``RememberedZones``), and hands a zone that comes again to `visit` whole: a scratch
    /// serves one `keeps` and one visitor that remembers what it made of each zone.
    /// - Returns: nil when the item is not written plainly or `visit` returned false.
    public static func read(
        _ bytes: UnsafeRawBufferPointer, scratch: Scratch, keeps: (UnsafeBufferPointer<UInt8>) -> Bool,
        visit: (PlainLine) -> Bool
    ) -> PlainItem? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else { return nil }
        let input = UnsafeBufferPointer(start: base, count: bytes.count)
        // A byte-order mark, or a first line starting with white space: the parser's.
        guard input[0] != 0xEF, input[0] != 0x20, input[0] != 0x09 else { return nil }
        var reader = Reader(input: input, joined: scratch.joined)
        var state = State(scratch: scratch)
        defer {
            scratch.joined = reader.joined
            state.giveBack(to: scratch)
        }
        // Where the root's VTIMEZONE being read starts, to be remembered when it ends.
        var zoneStart: Int?
        while let line = reader.nextLine() {
            if state.depth == 1, let start = reader.offset(of: line), ByteSearch.equals(line, "BEGIN:VTIMEZONE") {
                if let (slot, size, outline) = scratch.zones.match(input, at: start) {
                    guard state.repeatZone(outline, slot: slot, visit: visit) else { return nil }
                    reader.skip(to: start + size)
                    continue
                }
                zoneStart = start
                state.zoneSlot = scratch.zones.next
                scratch.zones.forget(scratch.zones.next)
            }
            guard state.take(line, keeps: keeps, visit: visit) else { return nil }
            if let start = zoneStart, state.depth == 1, let slot = state.zoneSlot {
                // The zone just ended: its bytes through its last line's end.
                scratch.zones.remember(
                    slot, bytes: UnsafeBufferPointer(rebasing: input[start..<reader.position]),
                    outline: state.root!.components.last!)
                zoneStart = nil
                state.zoneSlot = nil
            }
        }
        guard state.depth == 0, let root = state.root else { return nil }
        return PlainItem(outline: root, tzids: state.tzids)
    }

    /// Parameters with a TZID, as bytes and as text, and that TZID (``Property/tzid``).
    fileprivate struct ZoneParameters {
        var bytes: [UInt8]
        var text: String
        var tzid: String
    }

    /// The logical lines of the input: physical lines joined where folded, line ends and blank
    /// lines dropped, as `LineAssembler` makes them. A line not folded is a range of the input;
    /// a folded one is joined in the scratch's buffer.
    private struct Reader {
        let input: UnsafeBufferPointer<UInt8>
        /// Where a folded line is joined: the scratch's, until it grows.
        var joined: UnsafeMutableBufferPointer<UInt8>
        var position = 0
        /// The physical line after the last line handed on, found while looking for that line's
        /// continuations: the next line starts with it, without searching for its end again.
        var ahead: (line: Range<Int>, next: Int)?

        init(input: UnsafeBufferPointer<UInt8>, joined: UnsafeMutableBufferPointer<UInt8>) {
            self.input = input
            self.joined = joined
        }

        /// Where `line` starts in the input; nil for a line joined from folded ones.
        func offset(of line: UnsafeBufferPointer<UInt8>) -> Int? {
            guard let start = line.baseAddress, let base = input.baseAddress, start >= base,
                start < base + input.count
            else { return nil }
            return start - base
        }

        /// Goes on reading from `offset` (a line's start), past lines not handed on.
        mutating func skip(to offset: Int) {
            position = offset
            ahead = nil
        }

        /// The physical line from `start`, without its line end, and where the next starts.
        func physical(from start: Int) -> (line: Range<Int>, next: Int) {
            let base = input.baseAddress!
            guard let lf = memchr(base + start, 0x0A, input.count - start) else {
                return (start..<input.count, input.count)
            }
            var end = UnsafeRawPointer(lf) - UnsafeRawPointer(base)
            let next = end + 1
            if end > start && input[end - 1] == 0x0D { end -= 1 }
            return (start..<end, next)
        }

        mutating func nextLine() -> UnsafeBufferPointer<UInt8>? {
            // The first line that is not blank.
            var first: Range<Int>
            if let found = ahead {
                (first, position) = found
                ahead = nil
            } else {
                first = position..<position
            }
            while first.isEmpty {
                guard position < input.count else { return nil }
                (first, position) = physical(from: position)
            }
            // Continuations, across blank lines as the parser joins them.
            var joinedCount = -1
            var look = position
            while look < input.count {
                let (next, after) = physical(from: look)
                if next.isEmpty {
                    look = after
                    continue
                }
                guard input[next.lowerBound] == 0x20 || input[next.lowerBound] == 0x09 else {
                    ahead = (next, after)
                    break
                }
                if joinedCount < 0 {
                    joinedCount = 0
                    append(first, &joinedCount)
                }
                append(next.lowerBound + 1..<next.upperBound, &joinedCount)
                look = after
                position = after
            }
            if joinedCount < 0 { return UnsafeBufferPointer(rebasing: input[first]) }
            return UnsafeBufferPointer(start: joined.baseAddress, count: joinedCount)
        }

        private mutating func append(_ range: Range<Int>, _ count: inout Int) {
            if count + range.count > joined.count {
                let grown = UnsafeMutableBufferPointer<UInt8>.allocate(
                    capacity: Swift.max(joined.count * 2, count + range.count))
                grown.baseAddress!.update(from: joined.baseAddress!, count: count)
                joined.deallocate()
                joined = grown
            }
            guard !range.isEmpty else { return }
            (joined.baseAddress! + count).update(from: input.baseAddress! + range.lowerBound, count: range.count)
            count += range.count
        }
    }

    /// The open components and what is kept of them.
    private struct State {
        /// The names of the open components, one after the other, innermost last, and where
        /// each starts.
        var names: [UInt8] = []
        var starts: [Int] = []
        var depth: Int { starts.count }
        /// How many of the open components are VTIMEZONEs.
        var inTimeZone = 0
        var root: Component?
        /// The root's child being read, while depth is 2 or more, and whether it is a VTIMEZONE.
        var child: Component?
        var childIsTimeZone = false
        /// Whether `child` is set: asked for every line, where asking the optional itself copied
        /// the component (its arrays retained and released) each time.
        var hasChild = false
        var tzids: [String] = []
        /// The parameters the last TZID was read from (the scratch's, moved here for the read).
        var lastZone: ZoneParameters?
        /// Where a line's parameters are written as their canonical text.
        var parameters: UnsafeMutableBufferPointer<UInt8>
        /// The slot the root's VTIMEZONE about to be opened, or being read, is remembered in.
        var zoneSlot: Int?

        /// A state working in the scratch's room: its arrays are moved out of it (not copied,
        /// which would copy them again at the first append) until ``giveBack(to:)``.
        init(scratch: Scratch) {
            swap(&names, &scratch.names)
            swap(&starts, &scratch.starts)
            swap(&lastZone, &scratch.lastZone)
            parameters = scratch.parameters
        }

        /// Hands the room back, emptied, for the next read.
        mutating func giveBack(to scratch: Scratch) {
            names.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
            swap(&names, &scratch.names)
            swap(&starts, &scratch.starts)
            swap(&lastZone, &scratch.lastZone)
            scratch.parameters = parameters
        }

        mutating func take(
            _ line: UnsafeBufferPointer<UInt8>, keeps: (UnsafeBufferPointer<UInt8>) -> Bool,
            visit: (PlainLine) -> Bool
        ) -> Bool {
            let n = line.count
            var i = 0
            while i < n, Self.isNameByte(line[i]) { i += 1 }
            guard i > 0, i < n else { return false }
            let name = UnsafeBufferPointer(rebasing: line[0..<i])
            var parameterText = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            var zoned = false
            if line[i] == UInt8(ascii: ";") {
                // Room for the rest of the line; for a long line (an attachment's), for the
                // parameters as measured, not a buffer the size of the attachment.
                if n - i <= 4_096 {
                    Scratch.room(&parameters, for: n - i)
                } else {
                    guard let measured = PlainParameters.measure(line, from: i) else { return false }
                    Scratch.room(&parameters, for: measured.size)
                }
                guard let shape = PlainParameters.canonical(line, from: i, into: parameters) else { return false }
                parameterText = UnsafeBufferPointer(rebasing: parameters[0..<shape.count])
                i = shape.end
                zoned = shape.zoned
            }
            guard line[i] == UInt8(ascii: ":") else { return false }
            let value = UnsafeBufferPointer(rebasing: line[(i + 1)...])
            if ByteSearch.equals(name, "BEGIN") {
                guard parameterText.isEmpty, Self.isComponentName(value), depth < maximumDepth else { return false }
                return begin(value, visit: visit)
            }
            if ByteSearch.equals(name, "END") {
                guard parameterText.isEmpty, depth > 0, isInnermost(value) else { return false }
                return end(value, visit: visit)
            }
            guard depth > 0, let facts = Self.facts(of: value) else { return false }
            // Parameters naming no TZID have none to note (a `;TZID=` in a quoted value is not
            // one, as ``Property/tzid`` reads them).
            if inTimeZone == 0, zoned { noteTZID(of: parameterText) }
            if depth == 2, hasChild,
                keeps(name) || (childIsTimeZone && ByteSearch.equals(name, "TZID"))
            {
                child!.properties.append(
                    Property(
                        uppercasedName: Self.text(of: name),
                        parameterText: parameterText.isEmpty ? "" : text(ofParameters: parameterText),
                        value: String(decoding: value, as: UTF8.self)))
            }
            return visit(
                PlainLine(
                    kind: .property, name: name, parameterText: parameterText, value: value, valueFacts: facts,
                    slot: nil))
        }

        /// Notes the TZID of a property with these parameters, as ``Property/tzid`` reads it.
        /// An item's dates name one zone with the same parameters, line after line, and so do
        /// the items of a calendar: those are read once.
        private mutating func noteTZID(of parameterText: UnsafeBufferPointer<UInt8>) {
            if let tzid = lastZoneTZID(ifOf: parameterText) {
                tzids.append(tzid)
                return
            }
            let text = String(decoding: parameterText, as: UTF8.self)
            guard let tzid = Property(uppercasedName: "", parameterText: text, value: "").tzid else { return }
            tzids.append(tzid)
            lastZone = ZoneParameters(bytes: Array(parameterText), text: text, tzid: tzid)
        }

        /// The last TZID read, when it was read from these parameters.
        private func lastZoneTZID(ifOf parameterText: UnsafeBufferPointer<UInt8>) -> String? {
            guard let bytes = lastZone?.bytes, bytes.withUnsafeBufferPointer({ ByteSearch.equals(parameterText, $0) })
            else { return nil }
            return lastZone?.tzid
        }

        /// The parameters as text: the last TZID's parameters' text when they are those (a
        /// kept date's, most often), else made.
        private func text(ofParameters parameterText: UnsafeBufferPointer<UInt8>) -> String {
            if let bytes = lastZone?.bytes, bytes.withUnsafeBufferPointer({ ByteSearch.equals(parameterText, $0) }),
                let text = lastZone?.text
            {
                return text
            }
            return String(decoding: parameterText, as: UTF8.self)
        }

        private mutating func begin(_ name: UnsafeBufferPointer<UInt8>, visit: (PlainLine) -> Bool) -> Bool {
            switch depth {
            case 0:
                // One root, a VCALENDAR: a second root, or another, is the parser's.
                guard root == nil, ByteSearch.equals(name, "VCALENDAR") else { return false }
                root = Component(name: "VCALENDAR")
            case 1:
                var opened = Component(name: String(decoding: name, as: UTF8.self))
                // Room for what an event keeps (its UID, dates, rule, LAST-MODIFIED, SEQUENCE)
                // at once, not grown from one to two, four and eight.
                opened.properties.reserveCapacity(8)
                child = opened
                hasChild = true
            default:
                break
            }
            starts.append(names.count)
            names.append(contentsOf: name)
            var slot: Int?
            if ByteSearch.equals(name, "VTIMEZONE") {
                inTimeZone += 1
                if depth == 2 {
                    childIsTimeZone = true
                    slot = zoneSlot
                }
            }
            return visit(
                PlainLine(
                    kind: .begin, name: name, parameterText: .init(start: nil, count: 0),
                    value: .init(start: nil, count: 0), valueFacts: ValueFacts(), slot: slot))
        }

        /// A VTIMEZONE of the root whose bytes are those remembered in `slot`: its outline
        /// added, and the visitor told, as if its lines had been read again.
        mutating func repeatZone(_ outline: Component, slot: Int, visit: (PlainLine) -> Bool) -> Bool {
            root!.components.append(outline)
            return visit(
                PlainLine(
                    kind: .repeated, name: .init(start: nil, count: 0), parameterText: .init(start: nil, count: 0),
                    value: .init(start: nil, count: 0), valueFacts: ValueFacts(), slot: slot))
        }

        private mutating func end(_ name: UnsafeBufferPointer<UInt8>, visit: (PlainLine) -> Bool) -> Bool {
            if ByteSearch.equals(name, "VTIMEZONE") { inTimeZone -= 1 }
            names.removeLast(names.count - starts.removeLast())
            if depth == 1, let done = child {
                root!.components.append(done)
                child = nil
                hasChild = false
                childIsTimeZone = false
            }
            return visit(
                PlainLine(
                    kind: .end, name: name, parameterText: .init(start: nil, count: 0),
                    value: .init(start: nil, count: 0), valueFacts: ValueFacts(), slot: nil))
        }

        /// The name as a string: the names an outline keeps are literals, not made again for
        /// each line.
        static func text(of name: UnsafeBufferPointer<UInt8>) -> String {
            switch name.count {
            case 3:
                if ByteSearch.equals(name, "UID") { return "UID" }
                if ByteSearch.equals(name, "DUE") { return "DUE" }
            case 4: if ByteSearch.equals(name, "TZID") { return "TZID" }
            case 5:
                if ByteSearch.equals(name, "DTEND") { return "DTEND" }
                if ByteSearch.equals(name, "RRULE") { return "RRULE" }
                if ByteSearch.equals(name, "RDATE") { return "RDATE" }
            case 7: if ByteSearch.equals(name, "DTSTART") { return "DTSTART" }
            case 8:
                if ByteSearch.equals(name, "DURATION") { return "DURATION" }
                if ByteSearch.equals(name, "SEQUENCE") { return "SEQUENCE" }
            case 13: if ByteSearch.equals(name, "LAST-MODIFIED") { return "LAST-MODIFIED" }
            default: break
            }
            return String(decoding: name, as: UTF8.self)
        }

        /// Whether `name` names the innermost open component.
        func isInnermost(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            let start = starts[starts.count - 1]
            return names.withUnsafeBufferPointer {
                ByteSearch.equals(name, UnsafeBufferPointer(rebasing: $0[start...]))
            }
        }

        /// Upper-case letters, digits and `-`: a plain name (lower case is the parser's, which warns).
        static func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
        }

        /// What `LineShape.isComponentName` accepts, written in upper case and without spaces.
        static func isComponentName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            !bytes.isEmpty && bytes.allSatisfy { isNameByte($0) || $0 == 0x5F }
        }

        /// What a value is (``ValueFacts``); nil when its bytes are not well-formed UTF-8 (RFC
        /// 3629: no overlong forms, surrogates or scalars past U+10FFFF). One pass: ASCII is
        /// read eight bytes at a time, and looked at for the bytes that may need escaping until
        /// one is found.
        static func facts(of bytes: UnsafeBufferPointer<UInt8>) -> ValueFacts? {
            guard let base = bytes.baseAddress else { return ValueFacts() }
            let raw = UnsafeRawPointer(base), n = bytes.count
            var facts = ValueFacts()
            var i = 0
            while i < n {
                if i + 8 <= n {
                    let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        if !facts.mayNeedEscaping && ByteSearch.holdsEscapable(word) { facts.mayNeedEscaping = true }
                        i += 8
                        continue
                    }
                }
                let b = base[i]
                if b < 0x80 {
                    switch b {
                    case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), 0x0D, 0x0A:
                        facts.mayNeedEscaping = true
                    default: break
                    }
                    i += 1
                    continue
                }
                if b >= 0xCC { facts.hasByteFromCC = true }
                let length: Int
                var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
                switch b {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; upper = 0x9F
                case 0xF0: length = 4; lower = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; upper = 0x8F
                default: return nil
                }
                guard i + length <= n, (lower...upper).contains(base[i + 1]) else { return nil }
                for k in 2..<length where !(0x80...0xBF).contains(base[i + k]) { return nil }
                i += length
            }
            return facts
        }

    }
}
