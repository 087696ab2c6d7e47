/// File names for vdir items, made from the item's UID and never from a server's href.
///
/// A UID made only of letters, digits and `-_.@+=` (not starting with a dot, at most 120
/// bytes) is used as it is, so files keep the names vdirsyncer and khal give them. Any other
/// UID (with `/`, spaces, non-ASCII, a leading dot, or too long) keeps its safe characters, with
/// the rest replaced by `_`, followed by `-` and a 16-hex-digit hash of the whole UID, so two
/// different UIDs never share a name and the same UID always gets the same one.
public enum SafeFileName {
    static let maximumLength = 120

    /// True for the bytes a name keeps: ASCII letters and digits, and `-_.@+=`. A bit of two
    /// words, not a set nor a range test after another: each item's name is checked byte by
    /// byte, three times in a first pull.
    @inline(__always) static func isAllowed(_ byte: UInt8) -> Bool {
        byte < 0x80 && ((byte < 0x40 ? allowedLow : allowedHigh) >> UInt64(byte & 0x3F)) & 1 == 1
    }

    /// The bytes 0x00–0x3F and 0x40–0x7F a name keeps, a bit each: `-.0-9+=` and `@A-Z_a-z`.
    static let allowedLow: UInt64 = 0x23FF_6800_0000_0000
    static let allowedHigh: UInt64 = 0x07FF_FFFE_87FF_FFFF

    /// The file-name stem (no `.ics`) for `uid`.
    public static func stem(forUID uid: String) -> String {
        let utf8 = uid.utf8
        if !utf8.isEmpty, utf8.count <= maximumLength, utf8.first != UInt8(ascii: "."), allAllowed(utf8) {
            return uid
        }
        let bytes = Array(utf8)
        var kept = String(decoding: bytes.prefix(60).map { isAllowed($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
        while kept.hasPrefix(".") { kept.removeFirst() }
        let hash = String(fnv1a64(bytes), radix: 16)
        let padded = String(repeating: "0", count: 16 - hash.count) + hash
        return kept.isEmpty ? padded : "\(kept)-\(padded)"
    }

    /// The file name (`stem.ics`) for `uid`.
    public static func fileName(forUID uid: String) -> String { stem(forUID: uid) + ".ics" }

    /// True when `stem` may be used as a file-name stem as it is.
    public static func isSafeStem(_ stem: String) -> Bool {
        let utf8 = stem.utf8
        return !utf8.isEmpty && utf8.count <= maximumLength + 20 && utf8.first != UInt8(ascii: ".")
            && allAllowed(utf8)
    }

    /// Whether every byte is allowed, over the string's own bytes when it has them in one piece
    /// (as native strings do): the view's iterator took a first pull 3,000 instructions a name.
    private static func allAllowed(_ utf8: String.UTF8View) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isAllowed) } ?? utf8.allSatisfy(isAllowed)
    }

    static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }
}
