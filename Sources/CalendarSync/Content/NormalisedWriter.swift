import ICalendar

/// Writes components as ``ContentHash/normalisedBytes(_:)`` has them, into one buffer: each
/// component's lines and children are written at the buffer's end, sorted as ranges of it, and
/// assembled in a second buffer that is copied back over them. A first pull hashes every item:
/// an array for each component's lines, their ranges, each child and the result showed in its
/// profile.
///
/// With `canonicalizing`, each value is written as `Canonicalizer` would make it, which is the
/// hash's definition, without a canonical copy of the tree.
struct NormalisedWriter {
    /// What was written so far: the normalised bytes of each component written, one after the
    /// other.
    private(set) var bytes: [UInt8] = []
    /// The ranges of `bytes` that the components being written have written so far.
    private var ranges: [Range<Int>] = []
    /// Where a component is assembled before it is copied back.
    private var assembly: [UInt8] = []
    private let canonicalizer: Canonicalizer?

    /// A writer; with `canonicalizing`, values are written as `Canonicalizer` makes them.
    init(canonicalizing: Bool) {
        canonicalizer = canonicalizing ? Canonicalizer() : nil
        bytes.reserveCapacity(4096)
        ranges.reserveCapacity(64)
    }

    /// Appends the normalised bytes of `component` to `bytes`.
    /// - Returns: false when a name, parameter or value holds a byte from 0xCC up (a scalar
    ///   from U+0300 on): such text sorts as strings, not bytes. `bytes` is then left as it is.
    mutating func write(_ component: Component) -> Bool {
        let start = bytes.count
        let firstRange = ranges.count
        guard writeLinesAndChildren(of: component) else {
            bytes.removeSubrange(start...)
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
                guard Self.append(properties[i].name, to: &bytes) else { return false }
                if !properties[i].parameterText.isEmpty {
                    bytes.append(UInt8(ascii: ";"))
                    guard Self.append(properties[i].parameterText, to: &bytes) else { return false }
                }
                bytes.append(UInt8(ascii: ":"))
                let canonical = canonicalizer?.canonicalValue(
                    properties[i].value, name: properties[i].name, parameterText: properties[i].parameterText)
                guard Self.append(canonical ?? properties[i].value, to: &bytes) else { return false }
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
        Self.sort(&ranges, firstLine..<firstChild, of: bytes)
        Self.sort(&ranges, firstChild..<ranges.count, of: bytes)

        assembly.removeAll(keepingCapacity: true)
        assembly.append(contentsOf: "BEGIN:".utf8)
        guard Self.append(component.name, to: &assembly) else { return false }
        assembly.append(UInt8(ascii: "\n"))
        Self.copy(ranges[firstLine..<firstChild], of: bytes, to: &assembly, separatedBy: UInt8(ascii: "\n"))
        assembly.append(UInt8(ascii: "\n"))
        Self.copy(ranges[firstChild...], of: bytes, to: &assembly, separatedBy: nil)
        assembly.append(contentsOf: "END:".utf8)
        _ = Self.append(component.name, to: &assembly)
        assembly.append(UInt8(ascii: "\n"))

        bytes.removeSubrange(start...)
        bytes.append(contentsOf: assembly)
        ranges.removeSubrange(firstLine...)
        return true
    }

    /// Appends the UTF-8 of `text`; false when it holds a byte from 0xCC up.
    private static func append(_ text: String, to out: inout [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            out.append(contentsOf: utf8)
            return hasNoByteFromCC(utf8)
        }
    }

    /// Whether no byte is 0xCC or above: ASCII is passed over eight bytes at a time.
    private static func hasNoByteFromCC(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= utf8.count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            i += 8
        }
        while i < utf8.count {
            if utf8[i] >= 0xCC { return false }
            i += 1
        }
        return true
    }

    /// Sorts `ranges[part]` by the bytes they cover, a prefix first.
    private static func sort(_ ranges: inout [Range<Int>], _ part: Range<Int>, of bytes: [UInt8]) {
        guard part.count > 1 else { return }
        bytes.withUnsafeBufferPointer { text in
            ranges.withUnsafeMutableBufferPointer { all in
                var slice = UnsafeMutableBufferPointer(rebasing: all[part])
                slice.sort { ContentHash.precedes(text, $0, $1) }
            }
        }
    }

    /// Appends the bytes of each range, with `separator` between two.
    private static func copy(
        _ ranges: ArraySlice<Range<Int>>, of bytes: [UInt8], to out: inout [UInt8], separatedBy separator: UInt8?
    ) {
        bytes.withUnsafeBufferPointer { text in
            for (i, range) in ranges.enumerated() {
                if i > 0, let separator { out.append(separator) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: text[range]))
            }
        }
    }
}
