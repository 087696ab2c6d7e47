import Foundation

/// A mail as a mail program pipes it (RFC 5322 with MIME), read for its scheduling content: the
/// addresses, the subject and every calendar part (RFC 6047).
///
/// A bare iCalendar object (a `.ics` file, or what a program that already took the mail apart
/// pipes) is read too: a message without headers holding one calendar part.
///
/// ```swift
/// let message = try MailMessage.parse(Data(contentsOf: url))
/// if let invitation = message.calendarPart { print(invitation.method ?? "-", invitation.text) }
/// ```
///
/// ## Topics
/// - ``parse(_:limits:)``
/// - ``calendarPart``
/// - ``calendarParts``
public struct MailMessage: Sendable {
    /// The top-level header block (empty for a bare iCalendar object).
    private let headers: MailHeaders
    /// Every `text/calendar` and `application/ics` part, decoded, in the order they appear in
    /// the message (depth first, as a mail reader lists them).
    public let calendarParts: [CalendarPart]

    /// Reads `data` within `limits`.
    ///
    /// Only calendar parts are decoded; a damaged image or an unknown charset elsewhere in the
    /// message does not stop the reading.
    /// - Throws: ``MailError`` when the input is over a limit, is not a mail, or has a multipart
    ///   without its boundaries or a calendar part that cannot be decoded.
    public static func parse(_ data: Data, limits: MailLimits = MailLimits()) throws -> MailMessage {
        if data.count > limits.maximumSize {
            throw MailError(
                .tooLarge, "the message is \(data.count) bytes, more than the \(limits.maximumSize) allowed")
        }
        let bytes = [UInt8](data)
        if let calendar = bareCalendar(bytes) {
            return MailMessage(headers: MailHeaders(), calendarParts: [calendar])
        }
        let root = try MIMEPart.parse(bytes[...], limits: limits)
        if root.headers.fields.isEmpty {
            throw MailError(
                .notAMessage, "the input is neither a mail (it has no header fields) nor an iCalendar object")
        }
        var parts: [CalendarPart] = []
        try root.walk { part in
            if let calendar = try CalendarPart(part) { parts.append(calendar) }
        }
        return MailMessage(headers: root.headers, calendarParts: parts)
    }

    /// The calendar part to apply: the first inline one, else the first attachment.
    ///
    /// Outlook and Gmail send the invitation twice: inline in the multipart/alternative (what
    /// mail programs show with Accept and Decline) and again as an `invite.ics` attachment for
    /// programs that show only attachments. The two are the same object; the inline one is the
    /// one RFC 6047 §2.4 describes. A forwarded `.ics` with no inline part is still an attachment
    /// to read.
    public var calendarPart: CalendarPart? {
        calendarParts.first { !$0.isAttachment } ?? calendarParts.first
    }

    /// The sender, from the From header's first mailbox.
    public var from: MailAddress? {
        headers.value("From").flatMap { MailAddress.list($0).first }
    }

    /// Every mailbox of the From header (RFC 5322 allows several), in order.
    public var fromAll: [MailAddress] {
        headers.value("From").map(MailAddress.list) ?? []
    }

    /// The Sender header's mailbox: who sent a mail written by another (From).
    public var sender: MailAddress? {
        headers.value("Sender").flatMap { MailAddress.list($0).first }
    }

    /// False for a bare iCalendar object read as a message: it has no header fields at all.
    public var hasHeaders: Bool { !headers.fields.isEmpty }

    /// The recipients: every mailbox of To, then of Cc.
    public var to: [MailAddress] {
        (headers.values("To") + headers.values("Cc")).flatMap(MailAddress.list)
    }

    /// The subject, encoded words decoded.
    public var subject: String? {
        headers.value("Subject").map(EncodedWords.decode)
    }

    /// The Message-ID as written, angle brackets included.
    public var messageID: String? {
        headers.value("Message-ID")
    }

    /// The first header field named `name` (any case), unfolded and trimmed, encoded words left
    /// as written.
    public func header(_ name: String) -> String? {
        headers.value(name)
    }

    /// The input as one calendar part when it is an iCalendar object rather than a mail: it
    /// starts with `BEGIN:VCALENDAR`, perhaps after a byte order mark and whitespace.
    private static func bareCalendar(_ bytes: [UInt8]) -> CalendarPart? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [.space, .tab, .carriageReturn, .lineFeed].contains(bytes[start]) { start += 1 }
        let begin = Array("BEGIN:VCALENDAR".utf8)
        guard bytes.count - start >= begin.count,
            zip(bytes[start...], begin).allSatisfy({ $0 == $1 || $0 == $1 + 32 && $1 >= UInt8(ascii: "A") })
        else { return nil }
        return CalendarPart(method: nil, isAttachment: false, text: String(decoding: bytes[start...], as: UTF8.self))
    }
}
