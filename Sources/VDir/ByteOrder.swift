import Foundation

/// Puts a folder's names in the order of their bytes, as `strcmp` orders them (unsigned bytes,
/// a name before every longer name it begins).
///
/// Sorting 100,000 names by comparing them cost some 670 instructions a name, a quarter of an
/// edit made right after another (the folder's names are then read and sorted again). Here each
/// name's first sixteen bytes are read once as two big-endian numbers (zeros after a short
/// name: no name holds a NUL, so a shorter name comes first, as with `strcmp`) and the names are
/// sorted a byte at a time from the first (a most-significant-digit radix sort): the first
/// byte on which a group's names differ splits it into up to 256 smaller groups (the bytes
/// they all share, a common prefix, passed over at once), and a small group, or one whose
/// names share all sixteen bytes, is sorted by comparing.
public enum ByteOrder {
    /// A name's first sixteen bytes as numbers, and where the name is in the caller's list.
    private struct Key {
        var high: UInt64
        var low: UInt64
        var position: Int

        /// Byte `digit` of the sixteen (0 the first).
        @inline(__always) func byte(_ digit: Int) -> Int {
            Int(truncatingIfNeeded: (digit < 8 ? high >> (56 - 8 * digit) : low >> (120 - 8 * digit)) & 0xFF)
        }
    }

    /// Groups this small are sorted by comparing.
    private static let smallGroup = 32

    /// The positions `0..<count` in the order of the names' bytes: name `i` is the `length(i)`
    /// bytes at `base + start(i)`, followed by a NUL.
    public static func positions(
        count: Int, base: UnsafePointer<UInt8>, start: (Int) -> Int, length: (Int) -> Int
    ) -> [Int] {
        guard count > 1 else { return Array(0..<count) }
        var keys = (0..<count).map { i -> Key in
            var prefix = (UInt64(0), UInt64(0))
            withUnsafeMutableBytes(of: &prefix) { raw in
                raw.copyMemory(from: UnsafeRawBufferPointer(start: base + start(i), count: min(length(i), 16)))
            }
            return Key(high: UInt64(bigEndian: prefix.0), low: UInt64(bigEndian: prefix.1), position: i)
        }
        let scratch = UnsafeMutableBufferPointer<Key>.allocate(capacity: count)
        defer { scratch.deallocate() }
        // For each byte a group is split on: how many of its keys have each value, and where
        // each value's keys go; and where the next key of each value is put.
        let work = UnsafeMutableBufferPointer<Int>.allocate(capacity: 16 * 256 + 16 * 257 + 256)
        defer { work.deallocate() }
        let names = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        keys.withUnsafeMutableBufferPointer { keys in
            split(keys, scratch: scratch, work: work) { a, b in
                if a.high != b.high { return a.high < b.high }
                if a.low != b.low { return a.low < b.low }
                return strcmp(names + start(a.position), names + start(b.position)) < 0
            }
        }
        return keys.map(\.position)
    }

    /// Sorts `keys` by their bytes; `scratch` has room for as many keys, `work` for the counts.
    private static func split(
        _ keys: UnsafeMutableBufferPointer<Key>, scratch: UnsafeMutableBufferPointer<Key>,
        work: UnsafeMutableBufferPointer<Int>, precedes: (Key, Key) -> Bool
    ) {
        if keys.count <= smallGroup { return insertionSort(keys, precedes: precedes) }
        // The first of the sixteen bytes on which the group's keys differ (a group's keys share
        // the bytes it was split on, and often more: a common prefix is passed over at once).
        let first = keys[0]
        var (high, low) = (UInt64(0), UInt64(0))
        for key in keys {
            high |= key.high ^ first.high
            low |= key.low ^ first.low
        }
        let digit = high != 0 ? high.leadingZeroBitCount / 8 : low != 0 ? 8 + low.leadingZeroBitCount / 8 : 16
        if digit == 16 {
            // The sixteen bytes all the same: the names' other bytes decide.
            var group = keys
            return group.sort(by: precedes)
        }
        let count = UnsafeMutableBufferPointer(rebasing: work[(digit * 256)..<(digit * 256 + 256)])
        let bounds = UnsafeMutableBufferPointer(rebasing: work[(4096 + digit * 257)..<(4096 + digit * 257 + 257)])
        let next = UnsafeMutableBufferPointer(rebasing: work[(4096 + 16 * 257)...])
        count.update(repeating: 0)
        for key in keys { count[key.byte(digit)] &+= 1 }
        bounds[0] = 0
        for value in 0..<256 {
            bounds[value + 1] = bounds[value] &+ count[value]
            next[value] = bounds[value]
        }
        for key in keys {
            let value = key.byte(digit)
            scratch[next[value]] = key
            next[value] &+= 1
        }
        _ = keys.update(fromContentsOf: UnsafeMutableBufferPointer(rebasing: scratch[0..<keys.count]))
        for value in 0..<256 where count[value] > 1 {
            let range = bounds[value]..<bounds[value + 1]
            split(
                UnsafeMutableBufferPointer(rebasing: keys[range]),
                scratch: UnsafeMutableBufferPointer(rebasing: scratch[range]), work: work, precedes: precedes)
        }
    }

    /// Sorts a few keys by comparing, moving each back past the ones it precedes.
    private static func insertionSort(_ keys: UnsafeMutableBufferPointer<Key>, precedes: (Key, Key) -> Bool) {
        guard keys.count > 1 else { return }
        for i in 1..<keys.count {
            let key = keys[i]
            var j = i
            while j > 0, precedes(key, keys[j - 1]) {
                keys[j] = keys[j - 1]
                j -= 1
            }
            keys[j] = key
        }
    }
}
