import Foundation

extension CalDAVStorage {
    /// `data` with every line ending as CRLF (RFC 5545 §3.1).
    ///
    /// Calendar data read out of an XML answer (calendar-multiget, calendar-query) has lost
    /// its CRs: XML parsers turn CRLF and lone CR into LF (XML 1.0 §2.11). Items written to
    /// a vdir from such answers get their CRLFs back here. Bytes already in CRLF come back
    /// unchanged.
    /// `text`'s UTF-8 bytes with every line ending as CRLF, without an intermediate copy.
    static func restoringCRLF(_ text: String) -> Data {
        var text = text
        return text.withUTF8 { restoringCRLF(UnsafeRawBufferPointer($0)) }
    }

    static func restoringCRLF(_ data: Data) -> Data {
        data.withUnsafeBytes { restoringCRLF($0) }
    }

    static func restoringCRLF(_ bytes: UnsafeRawBufferPointer) -> Data {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var out = Data(capacity: bytes.count + bytes.count / 40)
        var previous: UInt8 = 0
        var runStart = 0
        // Copy runs without line breaks whole; only the breaks are looked at byte by byte.
        for (i, byte) in bytes.enumerated() where byte == lf || byte == cr || previous == cr {
            if byte == lf {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<i]))
                if previous != cr { out.append(cr) }
                out.append(lf)
                runStart = i + 1
            } else if previous == cr {
                // A lone CR ends a line too.
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<i]))
                out.append(lf)
                runStart = i
            } else {  // a CR: wait for what follows it
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<i]))
                out.append(cr)
                runStart = i + 1
            }
            previous = byte
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        if previous == cr { out.append(lf) }
        return out
    }
}
