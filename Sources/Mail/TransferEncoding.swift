/// Content-Transfer-Encoding (RFC 2045 §6): how a part's bytes were made safe for mail, and how
/// they are undone.
enum TransferEncoding: Sendable, Equatable {
    /// 7bit, 8bit or binary, or no header at all: the bytes are the content.
    case identity
    case base64
    case quotedPrintable

    /// The encoding a Content-Transfer-Encoding header names; an unknown name (`x-uuencode`)
    /// is an error for a part that must be read.
    init(header: String?) throws {
        switch header?.trimmingWhitespace().lowercased() ?? "" {
        case "", "7bit", "8bit", "binary": self = .identity
        case "base64": self = .base64
        case "quoted-printable": self = .quotedPrintable
        case let other:
            throw MailError(.badTransferEncoding, "a calendar part has the unknown transfer encoding \"\(other)\"")
        }
    }

    /// The bytes `encoded` stands for.
    /// - Throws: ``MailError`` when base64 holds a character outside its alphabet, data after
    ///   its padding, or a length that is not whole.
    func decode(_ encoded: ArraySlice<UInt8>) throws -> [UInt8] {
        switch self {
        case .identity: return Array(encoded)
        case .base64: return try Self.decodeBase64(encoded)
        case .quotedPrintable: return Self.decodeQuotedPrintable(encoded)
        }
    }

    /// Base64 as RFC 2045 §6.8 writes it: line breaks and other whitespace are skipped, anything
    /// else outside the alphabet is an error (a part cut short or damaged in transit should not
    /// be read as a shorter calendar).
    private static func decodeBase64(_ encoded: ArraySlice<UInt8>) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count * 3 / 4)
        var accumulator: UInt32 = 0
        var count = 0
        var padding = 0
        for byte in encoded {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case .equals:
                padding += 1
                continue
            case .space, .tab, .carriageReturn, .lineFeed: continue
            default:
                throw MailError(.badTransferEncoding, "a calendar part's base64 holds the byte \(byte), outside base64")
            }
            if padding > 0 {
                throw MailError(.badTransferEncoding, "a calendar part's base64 goes on after its final \"=\"")
            }
            accumulator = accumulator << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                output.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2: output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default:
            throw MailError(
                .badTransferEncoding, "a calendar part's base64 is cut short (a lone sixth of a byte at its end)")
        }
        return output
    }

    /// Quoted-printable (RFC 2045 §6.7): `=XX` is a byte, `=` at a line's end joins it to the
    /// next. An `=` followed by anything else is kept as written, as mail readers do.
    private static func decodeQuotedPrintable(_ encoded: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            guard byte == .equals else {
                output.append(byte)
                index += 1
                continue
            }
            // A soft line break, perhaps with trailing whitespace before the line end.
            var after = index + 1
            while after < encoded.endIndex && (encoded[after] == .space || encoded[after] == .tab) { after += 1 }
            if after < encoded.endIndex && encoded[after] == .lineFeed {
                index = after + 1
                continue
            }
            if after + 1 < encoded.endIndex && encoded[after] == .carriageReturn && encoded[after + 1] == .lineFeed {
                index = after + 2
                continue
            }
            if after == encoded.endIndex {
                index = after
                continue
            }
            if index + 2 < encoded.endIndex, let high = hexValue(encoded[index + 1]),
                let low = hexValue(encoded[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
