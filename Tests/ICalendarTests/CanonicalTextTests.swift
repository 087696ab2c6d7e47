import Testing

@testable import ICalendar

/// Whether a value is canonical text as it is (every `;` escaped, a `,` too unless it separates
/// list items, only the escapes RFC 5545 defines, no CR or LF): the answer RFC 5545 §3.3.11
/// gives, wherever in the value the bytes that matter stand, before and after eight bytes.
@Suite struct CanonicalTextTests {
    /// The test read byte by byte, as RFC 5545 §3.3.11 has it.
    private static func byteByByte(_ value: String, commasAreSeparators: Bool) -> Bool {
        var escaping = false
        for b in value.utf8 {
            if escaping {
                guard [UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "n")].contains(b) else {
                    return false
                }
                escaping = false
            } else if b == UInt8(ascii: "\\") {
                escaping = true
            } else if b == UInt8(ascii: ";") || b == 0x0D || b == 0x0A
                || (b == UInt8(ascii: ",") && !commasAreSeparators)
            {
                return false
            }
        }
        return !escaping
    }

    @Test func aValueIsCanonicalTextAsTheRFCReadsIt() {
        let pieces = [",", ";", "\\,", "\\;", "\\\\", "\\n", "\\N", "\\x", "\\", "\r", "\n", "é", "€"]
        var checked = 0
        for piece in pieces {
            for second in ["", "\\;", ","] {
                for at in 0..<20 {
                    let value =
                        String(repeating: "a", count: at) + piece + String(repeating: "b", count: 11) + second
                        + String(repeating: "c", count: 19 - at)
                    for commas in [false, true] {
                        #expect(
                            Canonicalizer.isCanonicalText(value, commasAreSeparators: commas)
                                == Self.byteByByte(value, commasAreSeparators: commas),
                            "\(value.debugDescription), commas as separators: \(commas)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == pieces.count * 3 * 20 * 2)
    }
}
