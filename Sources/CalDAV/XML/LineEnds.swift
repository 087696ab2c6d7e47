import Foundation

/// Line ends of calendar data read out of an XML answer.
///
/// Calendar data in a calendar-multiget or calendar-query answer has lost its CRs: XML
/// readers turn CRLF and lone CR into LF (XML 1.0 §2.11), and RFC 5545 §3.1 wants CRLF. Items
/// read from such answers get their CRLFs back here. Bytes already in CRLF come back unchanged.
public enum LineEnds {
    /// `data` with every line ending as CRLF.
    public static func restoringCRLF(_ data: Data) -> Data {
        data.withUnsafeBytes { restoringCRLF($0) }
    }

    /// `bytes` with every line ending (LF, CRLF, lone CR) as CRLF: one pass counts what is
    /// missing, a second writes the result into a buffer of its final size.
    public static func restoringCRLF(_ bytes: UnsafeRawBufferPointer) -> Data {
        if let restored = crlfFromLFOnly(bytes) { return restored }
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        // Each LF without its CR, and each CR without its LF, gains one byte. Counted from line
        // end to line end: a server that keeps its CRs (as `&#13;`, as Cyrus does) sends every
        // item this way, and a loop over every byte showed in a first pull's profile.
        let missing =
            unpaired(lf, unlessNextTo: cr, before: true, in: bytes)
            + unpaired(cr, unlessNextTo: lf, before: false, in: bytes)
        guard missing > 0 else { return Data(bytes) }

        var out = Data(count: bytes.count + missing)
        out.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
            var j = 0
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == lf, previous != cr {
                    target[j] = cr; j += 1
                } else if previous == cr, byte != lf {
                    target[j] = lf; j += 1
                }
                target[j] = byte; j += 1
                previous = byte
            }
            if previous == cr { target[j] = lf }
        }
        return out
    }

    /// `data` ending in a line end: a CRLF added after a last line that has none (SOGo drops the
    /// final CRLF of what it stores, where RFC 5545 §3.1 ends every content line with one), so
    /// that an item pulled from it is a file as every other vdir file is.
    public static func terminated(_ data: Data) -> Data {
        guard let last = data.last, last != 0x0A else { return data }
        var ended = data
        if last != 0x0D { ended.append(0x0D) }
        ended.append(0x0A)
        return ended
    }

    /// `bytes` with a CR before each LF, when they hold no CR at all (as every answer read
    /// through an XML parser does); nil when they hold one. Copies the runs between line ends
    /// with `memchr` and `memcpy` instead of byte by byte.
    /// How many `byte`s have no `partner` just before them (`before`) or just after them.
    private static func unpaired(
        _ byte: UInt8, unlessNextTo partner: UInt8, before: Bool, in bytes: UnsafeRawBufferPointer
    )
        -> Int
    {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, Int32(byte), bytes.count - offset) {
            let at = UnsafeRawPointer(found) - base
            if before {
                if at == 0 || bytes[at - 1] != partner { count += 1 }
            } else {
                if at + 1 == bytes.count || bytes[at + 1] != partner { count += 1 }
            }
            offset = at + 1
        }
        return count
    }

    private static func crlfFromLFOnly(_ bytes: UnsafeRawBufferPointer) -> Data? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return Data() }
        guard memchr(base, 0x0D, bytes.count) == nil else { return nil }
        var lineEnds = 0
        var rest = bytes.count, cursor = base
        while let lf = memchr(cursor, 0x0A, rest) {
            lineEnds += 1
            let taken = UnsafeRawPointer(lf) - cursor + 1
            cursor += taken
            rest -= taken
        }
        guard lineEnds > 0 else { return Data(bytes) }
        var out = Data(count: bytes.count + lineEnds)
        out.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
            var to = target.baseAddress!
            var from = base
            var left = bytes.count
            while let lf = memchr(from, 0x0A, left) {
                let run = UnsafeRawPointer(lf) - from
                to.copyMemory(from: from, byteCount: run)
                to.storeBytes(of: 0x0D, toByteOffset: run, as: UInt8.self)
                to.storeBytes(of: 0x0A, toByteOffset: run + 1, as: UInt8.self)
                to += run + 2
                from += run + 1
                left -= run + 1
            }
            to.copyMemory(from: from, byteCount: left)
        }
        return out
    }
}
