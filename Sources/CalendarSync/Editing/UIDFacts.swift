import Foundation

/// UIDs as an index keeps them for one file: those it holds (``ListingIndex/Kind/uids``). Each
/// UID's length (four bytes, little-endian), then its bytes.
enum UIDFacts {
    /// The stored form of `uids`.
    static func encode(_ uids: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for uid in uids {
            ListingIndex.append(UInt32(uid.utf8.count), to: &out)
            out += Array(uid.utf8)
        }
        return out
    }

    /// Whether the stored form `facts` holds `uid` (a damaged one holds whatever it is asked
    /// for, so its file is read). Lengths are compared first, then the bytes as memory (a
    /// sequence's `elementsEqual` walked both a byte at a time: 117 instructions a file, 67 now).
    /// - Parameter uid: its bytes (UTF-8): a search asks this of every file the index knows,
    ///   so the caller makes them once.
    static func contains(_ facts: UnsafeRawBufferPointer, uid: [UInt8]) -> Bool {
        uid.withUnsafeBytes { wanted in
            each(in: facts) { held in
                held.count == wanted.count
                    && (wanted.isEmpty || memcmp(held.baseAddress!, wanted.baseAddress!, wanted.count) == 0)
            } ?? true
        }
    }

    /// Calls `body` with each UID's bytes until it returns true.
    /// - Returns: whether `body` returned true; nil when `facts` is damaged.
    private static func each(in facts: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Bool) -> Bool? {
        var at = 0
        while at < facts.count {
            guard facts.count - at >= 4 else { return nil }
            let length = Int(UInt32(littleEndian: facts.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            at += 4
            guard facts.count - at >= length else { return nil }
            if body(UnsafeRawBufferPointer(rebasing: facts[at..<at + length])) { return true }
            at += length
        }
        return false
    }
}
