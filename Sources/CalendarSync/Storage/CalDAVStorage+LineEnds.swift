import Foundation

extension CalDAVStorage {
    /// `text`'s UTF-8 bytes with every line ending as CRLF (RFC 5545 §3.1).
    ///
    /// Calendar data read out of an XML answer (calendar-multiget, calendar-query) has lost
    /// its CRs: XML parsers turn CRLF and lone CR into LF (XML 1.0 §2.11). Items written to
    /// a vdir from such answers get their CRLFs back here. Bytes already in CRLF come back
    /// unchanged.
    static func restoringCRLF(_ text: String) -> Data {
        var text = text
        return text.withUTF8 { restoringCRLF(UnsafeRawBufferPointer($0)) }
    }

    /// `data` with every line ending as CRLF.
    static func restoringCRLF(_ data: Data) -> Data {
        data.withUnsafeBytes { restoringCRLF($0) }
    }

    /// `bytes` with every line ending (LF, CRLF, lone CR) as CRLF: one pass counts what is
    /// missing, a second writes the result into a buffer of its final size.
    static func restoringCRLF(_ bytes: UnsafeRawBufferPointer) -> Data {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        // Each LF without its CR, and each CR without its LF, gains one byte.
        var missing = 0
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == lf, previous != cr { missing += 1 } else if previous == cr, byte != lf { missing += 1 }
            previous = byte
        }
        if previous == cr { missing += 1 }
        guard missing > 0 else { return Data(bytes) }

        var out = Data(count: bytes.count + missing)
        out.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
            var j = 0
            previous = 0
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
}
