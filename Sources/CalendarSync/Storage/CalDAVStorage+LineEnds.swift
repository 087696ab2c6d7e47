import Foundation

extension CalDAVStorage {
    /// `data` with every line ending as CRLF (RFC 5545 §3.1).
    ///
    /// Calendar data read out of an XML answer (calendar-multiget, calendar-query) has lost
    /// its CRs: XML parsers turn CRLF and lone CR into LF (XML 1.0 §2.11). Items written to
    /// a vdir from such answers get their CRLFs back here. Bytes already in CRLF come back
    /// unchanged.
    static func restoringCRLF(_ data: Data) -> Data {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        guard data.contains(lf) || data.contains(cr) else { return data }
        var out = [UInt8]()
        out.reserveCapacity(data.count + data.count / 40)
        var previous: UInt8 = 0
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for byte in bytes {
                if byte == lf {
                    if previous != cr { out.append(cr) }
                    out.append(lf)
                } else if previous == cr {
                    // A lone CR ends a line too.
                    out.append(lf)
                    out.append(byte)
                } else {
                    out.append(byte)
                }
                previous = byte
            }
        }
        if previous == cr { out.append(lf) }
        return Data(out)
    }
}
