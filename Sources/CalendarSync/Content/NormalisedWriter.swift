import ICalendar

/// Writes components as ``ContentHash/normalisedBytes(_:)`` has them, into one buffer: each
/// component's lines and children are written at the buffer's end, sorted as ranges of it, and
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
struct NormalisedWriter: ~Copyable {
    /// What was written so far: the normalised bytes of each component written, one after the
    /// other.
    private(set) var bytes = ByteBuffer(capacity: 4096)
    /// The ranges of `bytes` that the components being written have written so far.
    private var ranges: [Range<Int>] = []
    /// Where a component is assembled before it is copied back.
    private var assembly = ByteBuffer(capacity: 1024)
    private let canonicalizer: Canonicalizer?

    /// A writer; with `canonicalizing`, values are written as `Canonicalizer` makes them.
    init(canonicalizing: Bool) {
        canonicalizer = canonicalizing ? Canonicalizer() : nil
        ranges.reserveCapacity(64)
    }

    /// Appends the normalised bytes of `component` to `bytes`.
    /// - Returns: false when a name, parameter or value holds a byte from 0xCC up (a scalar
    ///   from U+0300 on): such text sorts as strings, not bytes. `bytes` is then left as it is.
    mutating func write(_ component: Component) -> Bool {
        let start = bytes.count
        let firstRange = ranges.count
        guard writeLinesAndChildren(of: component) else {
            bytes.removeLast(bytes.count - start)
            ranges.removeSubrange(firstRange...)
            return false
        }
        return true
    }

    private mutating func writeLinesAndChildren(of component: Component) -> Bool {
        let start = bytes.count
        let firstLine = ranges.count
        // Through a pointer: a property taken by `for … in`, or passed on from an array, is a
        // copy of it.
        let written = component.properties.withUnsafeBufferPointer { properties in
            for i in properties.indices where !ContentHash.isVolatile(properties[i].name) {
                let lineStart = bytes.count
                guard bytes.append(properties[i].name) else { return false }
                if !properties[i].parameterText.isEmpty {
                    bytes.append(UInt8(ascii: ";"))
                    guard bytes.append(properties[i].parameterText) else { return false }
                }
                bytes.append(UInt8(ascii: ":"))
                // A value without a backslash, `;`, `,`, CR or LF is canonical whatever its type
                // (`Canonicalizer` changes none): most are, and are written as they are in the
                // one pass over their bytes that looks for bytes from 0xCC up.
                var value = properties[i].value
                let plain = value.withUTF8 { utf8 -> Bool? in
                    guard canonicalizer == nil || !ByteBuffer.mayNeedEscaping(utf8) else { return nil }
                    bytes.append(utf8)
                    return ByteBuffer.hasNoByteFromCC(utf8)
                }
                if let plain {
                    guard plain else { return false }
                } else {
                    let canonical = canonicalizer?.canonicalValue(
                        value, name: properties[i].name, parameterText: properties[i].parameterText)
                    guard bytes.append(canonical ?? value) else { return false }
                }
                ranges.append(lineStart..<bytes.count)
            }
            return true
        }
        guard written else { return false }
        let firstChild = ranges.count
        let children = component.components
        for i in children.indices {
            let childStart = bytes.count
            guard writeLinesAndChildren(of: children[i]) else { return false }
            ranges.append(childStart..<bytes.count)
        }
        let text = bytes.contents
        Self.sort(&ranges, firstLine..<firstChild, of: text)
        Self.sort(&ranges, firstChild..<ranges.count, of: text)

        assembly.removeAll()
        assembly.append(literal: "BEGIN:")
        guard assembly.append(component.name) else { return false }
        assembly.append(UInt8(ascii: "\n"))
        Self.copy(ranges[firstLine..<firstChild], of: text, to: &assembly, separatedBy: UInt8(ascii: "\n"))
        assembly.append(UInt8(ascii: "\n"))
        Self.copy(ranges[firstChild...], of: text, to: &assembly, separatedBy: nil)
        assembly.append(literal: "END:")
        _ = assembly.append(component.name)
        assembly.append(UInt8(ascii: "\n"))

        bytes.removeLast(bytes.count - start)
        bytes.append(assembly.contents)
        ranges.removeSubrange(firstLine...)
        return true
    }

    /// Sorts `ranges[part]` by the bytes they cover, a prefix first.
    private static func sort(_ ranges: inout [Range<Int>], _ part: Range<Int>, of text: UnsafeBufferPointer<UInt8>) {
        guard part.count > 1 else { return }
        ranges.withUnsafeMutableBufferPointer { all in
            var slice = UnsafeMutableBufferPointer(rebasing: all[part])
            slice.sort { ContentHash.precedes(text, $0, $1) }
        }
    }

    /// Appends the bytes of each range of `text`, with `separator` between two.
    private static func copy(
        _ ranges: ArraySlice<Range<Int>>, of text: UnsafeBufferPointer<UInt8>, to out: inout ByteBuffer,
        separatedBy separator: UInt8?
    ) {
        var first = true
        for range in ranges {
            if !first, let separator { out.append(separator) }
            first = false
            out.append(UnsafeBufferPointer(rebasing: text[range]))
        }
    }
}
