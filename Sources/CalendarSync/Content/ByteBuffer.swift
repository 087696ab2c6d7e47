import Foundation
import ICalendar

/// Bytes written through a pointer the buffer owns: appends of a few bytes at a time cost a
/// capacity check and a copy, where an array's cost its uniqueness check and a walk of the
/// sequence appended. ``NormalisedWriter`` writes each item's normalised bytes into two.
///
/// Not copyable: the memory is freed with the buffer, and `contents` is valid until the next
/// change.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes (it grows as needed).
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes it holds room for.
    var footprint: Int { capacity }

    /// The bytes written, valid until the buffer next changes.
    var contents: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for `more` bytes after the last: the check in line (an append's every call
    /// made it, a thousand instructions an item as a call), the growing apart.
    @inline(__always) private mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(toHold: more) }
    }

    @inline(never) private mutating func grow(toHold more: Int) {
        let grown = Swift.max(capacity * 2, count + more)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    /// Appends one byte.
    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`; in line, as most appends are a name, a parameter text or a short value.
    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the UTF-8 of a literal.
    @inline(__always) mutating func append(literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 of `text`.
    /// - Returns: false when it holds a byte from 0xCC up (a scalar from U+0300 on); the bytes
    ///   are appended all the same.
    mutating func append(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            append(utf8)
            return Self.hasNoByteFromCC(utf8)
        }
    }

    /// Drops the last `n` bytes.
    mutating func removeLast(_ n: Int) { count -= n }

    /// Drops every byte, keeping the room.
    mutating func removeAll() { count = 0 }

    /// Whether a byte is a backslash, `;`, `,`, CR or LF: the bytes `Canonicalizer` looks at
    /// in a text value (one without them is canonical as it is).
    static func mayNeedEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), 0x0D, 0x0A: return true
            default: continue
            }
        }
        return false
    }

    /// What one pass over a value finds, eight bytes at a time: whether it ``mayNeedEscaping(_:)``,
    /// and whether it is known to be ASCII (so it holds no byte from 0xCC up). A value that may
    /// need escaping is not looked at further: it is not known to be ASCII then.
    static func scanValue(_ utf8: UnsafeBufferPointer<UInt8>) -> (mayNeedEscaping: Bool, isKnownASCII: Bool) {
        guard let base = utf8.baseAddress else { return (false, true) }
        let raw = UnsafeRawPointer(base), n = utf8.count
        let highs: UInt64 = 0x8080_8080_8080_8080
        var high: UInt64 = 0
        var i = 0
        while i + 8 <= n {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if ByteSearch.holdsEscapable(word) { return (true, false) }
            high |= word
            i += 8
        }
        while i < n {
            let byte = utf8[i]
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), 0x0D, 0x0A: return (true, false)
            default: high |= UInt64(byte)
            }
            i += 1
        }
        return (false, high & highs == 0)
    }

    /// Whether no byte is 0xCC or above: ASCII is passed over eight bytes at a time.
    static func hasNoByteFromCC(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
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
}
