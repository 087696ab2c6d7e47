import Foundation

/// The names of one folder listing, kept as bytes in a single buffer (each followed by a NUL)
/// until they are sorted and stat'ed: a `String` per name made the sort retain and release
/// both names of every comparison, which took a fifth of a no-op's time at 100,000 files.
/// Only the names that survive the listing become strings, once, in order.
struct NameList: Sendable {
    /// Every name's bytes, each followed by a NUL (so that `fstatat` takes it as it is).
    private var bytes: [UInt8] = []
    /// Where each name starts in `bytes`.
    private var starts: [Int] = []

    var count: Int { starts.count }

    /// Adds a name (without its NUL).
    mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
        starts.append(bytes.count)
        bytes.append(contentsOf: name)
        bytes.append(0)
    }

    /// The positions of the names in the order of their bytes (`VDirectory.precedes`).
    func sortedPositions() -> [Int] {
        guard !starts.isEmpty else { return [] }
        return bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                // Each name ends at its NUL, where the next starts.
                ByteOrder.positions(
                    count: starts.count, base: bytes.baseAddress!, start: { starts[$0] },
                    length: { ($0 + 1 < starts.count ? starts[$0 + 1] : bytes.count) - starts[$0] - 1 })
            }
        }
    }

    /// Calls `body` with where each name starts and the buffer's first byte: the name at
    /// position `p` is the C string at `base + starts[p]`. What `body` hands to other threads
    /// stays valid until it returns (see `VDirectory.signatures`).
    /// - Precondition: the list is not empty.
    func withCStrings<T>(_ body: (UnsafeBufferPointer<Int>, UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { bytes in
            try starts.withUnsafeBufferPointer { starts in
                try body(starts, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self))
            }
        }
    }

    /// The name at `position`, nil when its bytes are not UTF-8 (no `String` could name the file).
    func name(at position: Int) -> String? {
        withCStrings { starts, base in String(validatingCString: base + starts[position]) }
    }

    /// True when the name at `position` is UTF-8 (`name(at:)` makes a `String` of it); without
    /// making the string when the name is ASCII, as nearly every name is.
    func isUTF8(at position: Int) -> Bool {
        let end = position + 1 < starts.count ? starts[position + 1] - 1 : bytes.count - 1
        if bytes[starts[position]..<end].allSatisfy({ $0 < 0x80 }) { return true }
        return name(at: position) != nil
    }
}
