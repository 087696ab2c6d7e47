import Foundation

/// An outgoing scheduling message (RFC 6047): a REQUEST, REPLY or CANCEL as mail, the bytes a
/// sendmail-compatible program takes on its standard input.
///
/// The body is a multipart/mixed holding a multipart/alternative of a readable `text/plain`
/// part and the `text/calendar; method=…` part (the shape RFC 6047 §4.2 shows and every mail
/// program that offers Accept and Decline reads), then the same object as an `invite.ics`
/// attachment, as Thunderbird and Outlook send it:
///
/// ```
/// From: Alice <alice@example.com>
/// To: bob@example.org
/// Subject: Invitation: Review
/// Date: Tue, 03 Jun 2025 09:00:00 +0000
/// Message-ID: <…@example.com>
/// MIME-Version: 1.0
/// Content-Type: multipart/mixed; boundary="…"
/// ```
///
/// Transfer encodings: a part whose lines all end in CRLF and hold at most 998 octets goes as
/// it is, `7bit` when it is ASCII and `8bit` otherwise (RFC 5322 §2.1.1's line limit; iCalendar
/// folds its lines at 75 octets, so a calendar written by calgw always qualifies and stays
/// readable in the mail's source). Anything else (bare LFs, longer lines) goes as base64, which
/// carries the bytes exactly, since a mail transfer agent may rewrite line ends and must not
/// alter the iCalendar object.
public struct SchedulingMail: Sendable {
    public var from: MailAddress
    public var to: [MailAddress]
    public var subject: String
    /// The readable part: what the meeting is, for people whose mail program shows no calendar.
    public var text: String
    /// The iCalendar object, with its METHOD.
    public var calendar: String
    /// The iTIP method, upper-cased: REQUEST, REPLY, CANCEL.
    public var method: String
    public var date: Date
    /// The Message-ID, angle brackets included.
    public var messageID: String
    /// The multipart boundary: a random one, which no line of the parts can hold.
    public var boundary: String

    /// A message from `from` to `to`. Without `messageID`, a random one at the sender's domain.
    public init(
        from: MailAddress, to: [MailAddress], subject: String, text: String, calendar: String, method: String,
        date: Date = Date(), messageID: String? = nil
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.calendar = calendar
        self.method = method.uppercased()
        self.date = date
        let domain = from.address.split(separator: "@").last.map(String.init) ?? "localhost"
        self.messageID = messageID ?? "<\(UUID().uuidString.lowercased())@\(domain)>"
        self.boundary = "calgw-\(UUID().uuidString.lowercased())"
    }

    /// The addresses to deliver to (the envelope recipients a sendmail program takes).
    public var recipients: [String] { to.map(\.address) }

    /// The whole message, lines ending in CRLF.
    public var bytes: Data {
        var out = ""
        out += "From: \(Self.header(from))\r\n"
        out += "To: \(to.map(Self.header).joined(separator: ",\r\n "))\r\n"
        out += "Subject: \(Self.headerText(subject))\r\n"
        out += "Date: \(Self.rfc5322Date(date))\r\n"
        out += "Message-ID: \(messageID)\r\n"
        out += "MIME-Version: 1.0\r\n"
        out += "Content-Type: multipart/mixed; boundary=\"\(boundary)-mixed\"\r\n"
        out += "\r\n"
        out += "--\(boundary)-mixed\r\n"
        out += "Content-Type: multipart/alternative; boundary=\"\(boundary)\"\r\n"
        out += "\r\n"
        out += "--\(boundary)\r\n"
        out += Self.part(contentType: "text/plain; charset=utf-8", content: Self.crlf(text))
        out += "--\(boundary)\r\n"
        out += Self.part(contentType: "text/calendar; charset=utf-8; method=\(method)", content: calendar)
        out += "--\(boundary)--\r\n"
        // The same object again as an attachment, as Thunderbird and Outlook send it: some
        // programs (and people) look only at attachments.
        out += "--\(boundary)-mixed\r\n"
        out += Self.part(
            contentType: "application/ics; name=\"invite.ics\"", content: calendar,
            disposition: "attachment; filename=\"invite.ics\"")
        out += "--\(boundary)-mixed--\r\n"
        return Data(out.utf8)
    }

    /// One body part: its two headers, an empty line, the content in the encoding that carries it
    /// unchanged, and the line end that belongs to the next delimiter.
    private static func part(contentType: String, content: String, disposition: String? = nil) -> String {
        let encoding: String
        let body: String
        if isCRLFText(content) {
            encoding = content.utf8.allSatisfy { $0 < 0x80 } ? "7bit" : "8bit"
            body = content + "\r\n"  // the line end before the next delimiter belongs to it
        } else {
            encoding = "base64"
            body =
                Data(content.utf8).base64EncodedString(options: [
                    .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
                ]) + "\r\n"
        }
        let attached = disposition.map { "Content-Disposition: \($0)\r\n" } ?? ""
        return "Content-Type: \(contentType)\r\n\(attached)Content-Transfer-Encoding: \(encoding)\r\n\r\n\(body)"
    }

    /// Whether every line of `content` ends in CRLF (the last may have no end) and holds at most
    /// 998 octets, with no NUL: what 7bit and 8bit may carry (RFC 2045 §2.7, §2.8).
    private static func isCRLFText(_ content: String) -> Bool {
        var length = 0
        var previous: UInt8 = 0
        for byte in content.utf8 {
            switch byte {
            case 0: return false
            case .lineFeed:
                if previous != .carriageReturn { return false }
                length = 0
            case .carriageReturn: break
            default:
                if previous == .carriageReturn { return false }
                length += 1
                if length > 998 { return false }
            }
            previous = byte
        }
        return previous != .carriageReturn
    }

    /// `text` with every line end (LF, CR or CRLF) made CRLF: a readable part is text, whose line
    /// ends mail may rewrite anyway.
    private static func crlf(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// A mailbox for a header: `Name <addr>`, the name quoted when it holds specials and
    /// encoded (RFC 2047) when it is not ASCII.
    static func header(_ mailbox: MailAddress) -> String {
        guard let name = mailbox.name, !name.isEmpty else { return mailbox.address }
        if !name.unicodeScalars.allSatisfy(\.isASCII) {
            return "\(encodedWords(name)) <\(mailbox.address)>"
        }
        let atext = name.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || "0123456789 !#$%&'*+-/=?^_`{|}~".unicodeScalars.contains($0)
        }
        if atext { return "\(name) <\(mailbox.address)>" }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\" <\(mailbox.address)>"
    }

    /// Unstructured header text (Subject): as it is when ASCII, else RFC 2047 encoded words.
    /// Line ends become spaces: a header cannot hold them.
    static func headerText(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        return flat.unicodeScalars.allSatisfy(\.isASCII) ? flat : encodedWords(flat)
    }

    /// `text` as base64 encoded words of at most 75 characters each (RFC 2047 §2), folded onto
    /// lines of their own, never splitting a character between two words.
    static func encodedWords(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=") }
        return words.joined(separator: "\r\n ")
    }

    /// `date` as RFC 5322 §3.3 writes it, in UTC: `Tue, 03 Jun 2025 09:00:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
