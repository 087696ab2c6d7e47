import Foundation

extension String {
    /// Whether the text's UTF-8 holds `needle`'s, byte for byte.
    ///
    /// Foundation's `contains(_:)`, which a module importing Foundation gets for strings, goes
    /// through `NSString` and a locale; over a parameter text or a value per property it showed
    /// in a first pull's profile. iCalendar names and parameter names are ASCII, for which bytes
    /// and characters agree.
    public func containsUTF8(_ needle: String) -> Bool {
        var text = self
        var needle = needle
        return text.withUTF8 { haystack in needle.withUTF8 { ByteSearch.contains($0, in: haystack) } }
    }
}

/// Searching bytes for bytes without making strings or arrays.
public enum ByteSearch {
    /// Whether `needle` occurs in `haystack` (an empty needle always does).
    public static func contains(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether one of eight bytes read as a word is a backslash, `;`, `,`, CR or LF, the bytes
    /// that may need escaping in a text value: a byte of the word XORed with it repeated is
    /// then zero. Bytes from 0x80 are none of them.
    @inlinable @inline(__always)
    public static func holdsEscapable(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // The high bit of each byte that is zero (and maybe of bytes above one that is):
        // nonzero exactly when a byte is.
        @inline(__always) func zeros(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        return zeros(word ^ 0x5C5C_5C5C_5C5C_5C5C) | zeros(word ^ 0x3B3B_3B3B_3B3B_3B3B)
            | zeros(word ^ 0x2C2C_2C2C_2C2C_2C2C) | zeros(word ^ 0x0D0D_0D0D_0D0D_0D0D)
            | zeros(word ^ 0x0A0A_0A0A_0A0A_0A0A) != 0
    }

    /// Whether `bytes` are the UTF-8 of `text`. Inlinable, as the next: most calls compare a
    /// name with a literal of another length, which the caller then tells without a call.
    @inlinable
    public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        equals(bytes, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether `bytes` and `other` are the same bytes.
    @inlinable
    public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == other.count else { return false }
        guard let a = bytes.baseAddress, let b = other.baseAddress, bytes.count > 0 else { return true }
        return memcmp(a, b, bytes.count) == 0
    }

    /// Whether the UTF-8 of `needle` occurs in `haystack`.
    public static func contains(_ needle: StaticString, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: haystack)
    }

    /// Whether `needle` (ASCII upper case) occurs in `haystack` with ASCII letters in either case.
    static func containsIgnoringASCIICase(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        func upper(_ b: UInt8) -> UInt8 { b >= 0x61 && b <= 0x7A ? b - 0x20 : b }
        for i in 0...(haystack.count - needle.count) {
            var j = 0
            while j < needle.count && upper(haystack[i + j]) == needle[j] { j += 1 }
            if j == needle.count { return true }
        }
        return false
    }
}

extension String {
    /// Whether the text is `name`, told by the lengths first: most names compared with a
    /// literal are another one, and two short strings that differ were compared by a call.
    @inlinable
    public func isName(_ name: String) -> Bool { utf8.count == name.utf8.count && self == name }

    /// Whether the text holds `needle` (ASCII upper case) with ASCII letters in either case, as
    /// iCalendar names are read.
    public func containsASCIICaseInsensitive(_ needle: String) -> Bool {
        var text = self
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { ByteSearch.containsIgnoringASCIICase($0, in: haystack) }
        }
    }
}
