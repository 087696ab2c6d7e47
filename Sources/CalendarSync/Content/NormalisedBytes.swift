import Foundation
import ICalendar

extension ContentHash {
    /// The UTF-8 of ``normalisedLines(_:)``, built in one buffer per component instead of a
    /// string per line, or nil when some name, parameter or value holds a scalar from U+0300 on
    /// (a UTF-8 byte from 0xCC up).
    ///
    /// Lines are strings there, and strings sort by canonical equivalence, bytes by value. The
    /// two orders agree while every scalar is below U+0300: none of those combines with another
    /// (NFC leaves such text as it is), so comparing their scalars is comparing their bytes. That
    /// is ASCII and the Latin letters of most calendars; anything else takes the way of strings,
    /// and both ways give the same text (`ContentHashTests` compares them over the corpora).
    static func normalisedBytes(_ component: Component) -> [UInt8]? {
        var lines: [UInt8] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(component.properties.count)
        for property in component.properties where !isVolatile(property.name) {
            let start = lines.count
            guard append(property.name, to: &lines) else { return nil }
            if !property.parameterText.isEmpty {
                lines.append(UInt8(ascii: ";"))
                guard append(property.parameterText, to: &lines) else { return nil }
            }
            lines.append(UInt8(ascii: ":"))
            guard append(property.value, to: &lines) else { return nil }
            ranges.append(start..<lines.count)
        }
        lines.withUnsafeBufferPointer { text in ranges.sort { precedes(text, $0, $1) } }

        var children: [[UInt8]] = []
        children.reserveCapacity(component.components.count)
        for child in component.components {
            guard let bytes = normalisedBytes(child) else { return nil }
            children.append(bytes)
        }
        children.sort(by: precedes)

        var out: [UInt8] = []
        out.reserveCapacity(
            lines.count + ranges.count + children.reduce(0) { $0 + $1.count } + 2 * component.name.utf8.count + 12)
        out.append(contentsOf: "BEGIN:".utf8)
        guard append(component.name, to: &out) else { return nil }
        out.append(UInt8(ascii: "\n"))
        for (i, range) in ranges.enumerated() {
            if i > 0 { out.append(UInt8(ascii: "\n")) }
            out.append(contentsOf: lines[range])
        }
        out.append(UInt8(ascii: "\n"))
        for child in children { out.append(contentsOf: child) }
        out.append(contentsOf: "END:".utf8)
        out.append(contentsOf: component.name.utf8)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Appends the UTF-8 of `text`; false when it holds a byte from 0xCC up.
    private static func append(_ text: String, to out: inout [UInt8]) -> Bool {
        let start = out.count
        if text.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: text.utf8)
        }
        return out.withUnsafeBufferPointer { bytes in
            var highest: UInt8 = 0
            for i in start..<bytes.count { highest = max(highest, bytes[i]) }
            return highest < 0xCC
        }
    }

    /// Byte order, a prefix first.
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in precedes(a, b) } }
    }

    private static func precedes(_ text: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        precedes(UnsafeBufferPointer(rebasing: text[a]), UnsafeBufferPointer(rebasing: text[b]))
    }

    private static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(a.count, b.count)
        if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let order = memcmp(pa, pb, common)
            if order != 0 { return order < 0 }
        }
        return a.count < b.count
    }
}
