/// The character sets a calendar part or an encoded word may be written in, and how their bytes
/// become text.
///
/// UTF-8 (iCalendar's own, RFC 5545 §3.1.4, and the default when none is named), US-ASCII,
/// ISO-8859-1 and windows-1252 (Outlook's). Any other name is refused with a clear error rather
/// than guessed at: a wrongly decoded UID would silently miss the event it names.
enum Charset: Sendable, Equatable {
    case utf8
    case latin1
    case windows1252

    /// The charset an IANA name (any case, quoted or not) stands for; nil or empty means UTF-8.
    /// - Throws: ``MailError`` for a name outside the four above.
    init(name: String?) throws {
        switch name?.trimmingWhitespace().lowercased() ?? "" {
        case "", "utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4-1968": self = .utf8
        case "iso-8859-1", "iso8859-1", "latin1", "iso_8859-1", "l1": self = .latin1
        case "windows-1252", "cp1252": self = .windows1252
        case let other:
            throw MailError(
                .unsupportedCharset,
                "a calendar part is in the charset \"\(other)\"; only UTF-8, US-ASCII, ISO-8859-1 and windows-1252 are read"
            )
        }
    }

    /// The text `bytes` stand for. Bytes that are not valid UTF-8 become U+FFFD, as in every mail
    /// reader: one bad byte in a DESCRIPTION (RFC 6047's own §2.5 example has one, a
    /// quoted-printable soft break inside a UTF-8 sequence) must not hide the invitation.
    func decode(_ bytes: [UInt8]) -> String {
        switch self {
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .latin1:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .windows1252:
            return String(String.UnicodeScalarView(bytes.map(Self.windows1252Scalar)))
        }
    }

    /// windows-1252 is ISO-8859-1 except at 0x80 to 0x9F, where it has printable characters
    /// (€, curly quotes, dashes); the five bytes it leaves undefined keep their Latin-1 value.
    private static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        let table: [UInt32] = [
            0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
            0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
            0x0153, 0x9D, 0x017E, 0x0178,
        ]
        return Unicode.Scalar(table[Int(byte) - 0x80]) ?? Unicode.Scalar(byte)
    }
}
