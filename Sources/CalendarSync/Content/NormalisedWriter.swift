import Foundation
import ICalendar

/// Writes components as ``ContentHash/normalisedBytes(_:)`` has them, into one buffer: each
/// component's lines and children are written at the buffer's end, sorted as pieces of it, and
/// assembled in a second buffer that is copied back over them. A first pull hashes every item:
/// an array for each component's lines, their ranges, each child and the result showed in its
/// profile.
///
/// Both buffers are ``ByteBuffer``s written through their pointers: a name, a `;` or a `:` is
/// a few bytes, and an append to an array of that many cost about 250 instructions (its
/// uniqueness and capacity checked, its sequence walked), more than the bytes themselves.
///
/// With `canonicalizing`, each value is written as `Canonicalizer` would make it, which is the
/// hash's definition, without a canonical copy of the tree.
///
/// A component is written whole from its tree (``write(_:)``), or line by line as a reader
/// meets its lines (``begin(_:)``, ``line(name:parameterText:value:canonical:)``, ``end()``:
/// ``PlainItemReader`` hands an item over so, without a tree); the tree is written through the
/// same three, so both give the same bytes.
struct NormalisedWriter: ~Copyable {
    /// What was written so far: the normalised bytes of each component written, one after the
    /// other.
    private(set) var bytes = ByteBuffer(capacity: 4096)
    /// Where each component written whole (not inside another) is in `bytes`, in order.
    private(set) var roots: [Range<Int>] = []
    /// The pieces of `bytes` holding the lines, and the children, of the open components.
    private var lines: [Piece] = []
    private var children: [Piece] = []
    /// The open components, innermost last, and their names (in `names`).
    private var open: [Open] = []
    private var names = ByteBuffer(capacity: 256)
    /// Where a component is assembled before it is copied back.
    private var assembly = ByteBuffer(capacity: 1024)
    /// The normalised bytes of the zones a reader remembered (``PlainLine/slot``), by slot:
    /// written again, not made again, when the reader meets the same zone.
    private var remembered: [[UInt8]] = []
    private let canonicalizer: Canonicalizer?

    /// A line or a child written: its range of `bytes`, and its first eight bytes as a
    /// big-endian word (zeros after a shorter one), which order two pieces as their bytes do
    /// when they differ. Sorting compares the words, and the bytes only when the words are equal
    /// (attendees, alarms): the words taken once, not at each comparison.
    private struct Piece {
        var key: UInt64
        var range: Range<Int>

        init(_ range: Range<Int>, of text: UnsafeBufferPointer<UInt8>) {
            self.range = range
            if range.count >= 8 {
                key = UInt64(
                    bigEndian: UnsafeRawPointer(text.baseAddress! + range.lowerBound).loadUnaligned(as: UInt64.self))
            } else {
                var word: UInt64 = 0
                for i in 0..<8 { word = word << 8 | UInt64(i < range.count ? text[range.lowerBound + i] : 0) }
                key = word
            }
        }
    }

    /// An open component: where its bytes start, where its lines and children start in
    /// `lines` and `children`, and its name in `names`.
    private struct Open {
        var start: Int
        var firstLine: Int
        var firstChild: Int
        var name: Range<Int>
        /// The slot its bytes are remembered in when it ends (``PlainLine/slot``).
        var slot: Int?
    }

    /// A writer; with `canonicalizing`, values are written as `Canonicalizer` makes them.
    init(canonicalizing: Bool) {
        canonicalizer = canonicalizing ? Canonicalizer() : nil
        lines.reserveCapacity(64)
        children.reserveCapacity(16)
        open.reserveCapacity(4)
    }

    /// Appends the normalised bytes of `component` to `bytes`.
    /// - Returns: false when a name, parameter or value holds a byte from 0xCC up (a scalar
    ///   from U+0300 on): such text sorts as strings, not bytes. The writer is then spent.
    mutating func write(_ component: Component) -> Bool {
        var name = component.name
        guard name.withUTF8({ begin($0) }) else { return false }
        let canonicalizer = self.canonicalizer
        // Through a pointer: a property taken by `for … in`, or passed on from an array, is a
        // copy of it.
        let written = component.properties.withUnsafeBufferPointer { properties in
            for i in properties.indices {
                var name = properties[i].name, parameterText = properties[i].parameterText
                var value = properties[i].value
                let fine = name.withUTF8 { name in
                    parameterText.withUTF8 { parameterText in
                        value.withUTF8 { value in
                            line(name: name, parameterText: parameterText, value: value) {
                                canonicalizer?.canonicalValue(
                                    properties[i].value, name: properties[i].name,
                                    parameterText: properties[i].parameterText)
                            }
                        }
                    }
                }
                guard fine else { return false }
            }
            return true
        }
        guard written else { return false }
        for child in component.components { guard write(child) else { return false } }
        end()
        return true
    }

    /// Opens a component named `name` (upper case); its lines and children follow, then ``end()``.
    /// - Parameter slot: where to remember its normalised bytes when it ends, for
    ///   ``repeat(_:)`` (a zone a reader remembers in that slot).
    /// - Returns: false when the name holds a byte from 0xCC up.
    mutating func begin(_ name: UnsafeBufferPointer<UInt8>, rememberedIn slot: Int? = nil) -> Bool {
        let nameStart = names.count
        names.append(name)
        open.append(
            Open(
                start: bytes.count, firstLine: lines.count, firstChild: children.count, name: nameStart..<names.count,
                slot: slot))
        return ByteBuffer.hasNoByteFromCC(name)
    }

    /// Writes again, as a child of the innermost open component, the component remembered in
    /// `slot` (``PlainLine/Kind/repeated``: the reader met the same bytes again).
    mutating func `repeat`(_ slot: Int) {
        let start = bytes.count
        remembered[slot].withUnsafeBufferPointer { bytes.append($0) }
        children.append(Piece(start..<bytes.count, of: bytes.contents))
    }

    /// Writes a property of the innermost open component (the volatile ones are left out).
    /// `canonical` gives the value as `Canonicalizer` makes it, nil when it is canonical as it
    /// is: asked only for a value with a backslash, `;`, `,`, CR or LF.
    /// - Returns: false when a byte is from 0xCC up.
    mutating func line(
        name: UnsafeBufferPointer<UInt8>, parameterText: UnsafeBufferPointer<UInt8>,
        value: UnsafeBufferPointer<UInt8>, canonical: () -> String?
    ) -> Bool {
        if Self.isVolatile(name) { return true }
        let lineStart = writeHead(name: name, parameterText: parameterText)
        // A value without a backslash, `;`, `,`, CR or LF is canonical whatever its type
        // (`Canonicalizer` changes none): most are, and are written as they are.
        // One pass over the value says both whether to ask for its canonical form and, when it
        // is written as it is, whether it is ASCII (so holds no byte from 0xCC up).
        let valueStart = bytes.count
        var valueIsASCII = false
        if canonicalizer != nil {
            let scan = ByteBuffer.scanValue(value)
            if scan.mayNeedEscaping, let made = canonical() {
                _ = bytes.append(made)
            } else {
                bytes.append(value)
                valueIsASCII = scan.isKnownASCII
            }
        } else {
            bytes.append(value)
        }
        lines.append(Piece(lineStart..<bytes.count, of: bytes.contents))
        return ByteBuffer.hasNoByteFromCC(name) && ByteBuffer.hasNoByteFromCC(parameterText)
            && (valueIsASCII
                || ByteBuffer.hasNoByteFromCC(UnsafeBufferPointer(rebasing: bytes.contents[valueStart...])))
    }

    /// As ``line(name:parameterText:value:canonical:)``, for a line ``PlainItemReader`` read:
    /// its name and parameters are ASCII, and what its value holds was learnt as it was read
    /// (``ValueFacts``), so the value is not read again.
    /// - Returns: false when a byte of the value written is from 0xCC up.
    mutating func line(_ plain: PlainLine, canonical: () -> String?) -> Bool {
        line(plain, parameterText: plain.parameterText, canonical: canonical)
    }

    /// As ``line(_:canonical:)``, with `parameterText` (ASCII) in place of the line's own.
    mutating func line(_ plain: PlainLine, parameterText: UnsafeBufferPointer<UInt8>, canonical: () -> String?) -> Bool
    {
        if Self.isVolatile(plain.name) { return true }
        let lineStart = writeHead(name: plain.name, parameterText: parameterText)
        var fine = !plain.valueFacts.hasByteFromCC
        if plain.valueFacts.mayNeedEscaping, let made = canonical() {
            fine = bytes.append(made)
        } else {
            bytes.append(plain.value)
        }
        lines.append(Piece(lineStart..<bytes.count, of: bytes.contents))
        return fine
    }

    /// Writes a line's name, its parameters after a `;` when it has any, and the `:` before
    /// its value; gives where the line starts.
    private mutating func writeHead(name: UnsafeBufferPointer<UInt8>, parameterText: UnsafeBufferPointer<UInt8>) -> Int
    {
        let lineStart = bytes.count
        bytes.append(name)
        if !parameterText.isEmpty {
            bytes.append(UInt8(ascii: ";"))
            bytes.append(parameterText)
        }
        bytes.append(UInt8(ascii: ":"))
        return lineStart
    }

    /// The bytes its buffers hold room for.
    var footprint: Int {
        bytes.footprint + assembly.footprint + names.footprint + remembered.reduce(0) { $0 + $1.count }
    }

    /// Empties the writer for the next item, keeping its room.
    mutating func removeAll() {
        bytes.removeAll()
        roots.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        children.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        names.removeAll()
    }

    /// Closes the innermost open component: its lines sorted, then its children sorted, between
    /// its BEGIN and END, in place of what it wrote.
    mutating func end() {
        let component = open.removeLast()
        let text = bytes.contents
        Self.sort(&lines, component.firstLine..<lines.count, of: text)
        Self.sort(&children, component.firstChild..<children.count, of: text)
        let name = UnsafeBufferPointer(rebasing: names.contents[component.name])

        assembly.removeAll()
        assembly.append(literal: "BEGIN:")
        assembly.append(name)
        assembly.append(UInt8(ascii: "\n"))
        Self.copy(lines[component.firstLine...], of: text, to: &assembly, separatedBy: UInt8(ascii: "\n"))
        assembly.append(UInt8(ascii: "\n"))
        Self.copy(children[component.firstChild...], of: text, to: &assembly, separatedBy: nil)
        assembly.append(literal: "END:")
        assembly.append(name)
        assembly.append(UInt8(ascii: "\n"))

        bytes.removeLast(bytes.count - component.start)
        bytes.append(assembly.contents)
        // From the end: a range removed through `removeSubrange` was a generic replacement,
        // twice a component.
        lines.removeLast(lines.count - component.firstLine)
        children.removeLast(children.count - component.firstChild)
        names.removeLast(names.count - component.name.lowerBound)
        if open.isEmpty {
            roots.append(component.start..<bytes.count)
        } else {
            children.append(Piece(component.start..<bytes.count, of: bytes.contents))
        }
        if let slot = component.slot { remember(bytes.contents[component.start...], in: slot) }
    }

    /// Keeps `written` (a component's normalised bytes) in `slot`.
    private mutating func remember(_ written: Slice<UnsafeBufferPointer<UInt8>>, in slot: Int) {
        while remembered.count <= slot { remembered.append([]) }
        remembered[slot].removeAll(keepingCapacity: true)
        remembered[slot].append(contentsOf: written)
    }

    /// PRODID and DTSTAMP, which servers and clients rewrite (``ContentHash/isVolatile(_:)``).
    private static func isVolatile(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteSearch.equals(name, "PRODID") || ByteSearch.equals(name, "DTSTAMP")
    }

    /// Sorts `pieces[part]` by the bytes they cover, a prefix first: by their words, then, when
    /// those are equal, by their bytes.
    private static func sort(_ pieces: inout [Piece], _ part: Range<Int>, of text: UnsafeBufferPointer<UInt8>) {
        guard part.count > 1 else { return }
        pieces.withUnsafeMutableBufferPointer { all in
            var slice = UnsafeMutableBufferPointer(rebasing: all[part])
            slice.sort { $0.key != $1.key ? $0.key < $1.key : ContentHash.precedes(text, $0.range, $1.range) }
        }
    }

    /// Appends the bytes of each piece of `text`, with `separator` between two.
    private static func copy(
        _ pieces: ArraySlice<Piece>, of text: UnsafeBufferPointer<UInt8>, to out: inout ByteBuffer,
        separatedBy separator: UInt8?
    ) {
        var first = true
        for piece in pieces {
            if !first, let separator { out.append(separator) }
            first = false
            out.append(UnsafeBufferPointer(rebasing: text[piece.range]))
        }
    }
}
