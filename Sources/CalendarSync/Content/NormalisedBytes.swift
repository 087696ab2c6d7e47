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
        var writer = NormalisedWriter(canonicalizing: false)
        return writer.write(component) ? Array(writer.bytes.contents) : nil
    }

    /// Byte order, a prefix first.
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in precedes(a, b) } }
    }

    static func precedes(_ text: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        precedes(UnsafeBufferPointer(rebasing: text[a]), UnsafeBufferPointer(rebasing: text[b]))
    }

    static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most lines differ in their first eight bytes: compared as one big-endian word, which
        // orders as the bytes do, without a call to `memcmp`.
        if a.count >= 8, b.count >= 8, let pa = a.baseAddress, let pb = b.baseAddress {
            let x = UInt64(bigEndian: UnsafeRawPointer(pa).loadUnaligned(as: UInt64.self))
            let y = UInt64(bigEndian: UnsafeRawPointer(pb).loadUnaligned(as: UInt64.self))
            if x != y { return x < y }
        }
        let common = min(a.count, b.count)
        if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let order = memcmp(pa, pb, common)
            if order != 0 { return order < 0 }
        }
        return a.count < b.count
    }
}
