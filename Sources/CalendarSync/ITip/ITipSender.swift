import ICalendar
import Mail

/// Who a mail says sent it, as iTIP's checks read it: every mailbox of its From and its Sender,
/// normalised. Mail is not authenticated (RFC 6047 §3), but a message is taken only from the
/// person it speaks for: a REPLY from the attendee it answers for, a REQUEST or CANCEL of a
/// meeting held from its ORGANIZER or that ORGANIZER's SENT-BY.
public struct ITipSender: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The From header's addresses, normalised (usually one).
    public var from: [String]
    /// The Sender header's address, normalised; nil when absent.
    public var sender: String?

    /// A mail from the `from` addresses, sent by `sender`.
    public init(from: [String], sender: String? = nil) {
        self.from = from.map { CalendarUser.normalized($0) }
        self.sender = sender.map { CalendarUser.normalized($0) }
    }

    /// A mail from the one address `value`.
    public init(stringLiteral value: String) { self.init(from: [value]) }

    /// Who `mail` says sent it; nil for a bare iCalendar object, which names no sender.
    public init?(mail: MailMessage) {
        guard mail.hasHeaders else { return nil }
        self.init(from: mail.fromAll.map(\.address), sender: mail.sender?.address)
    }

    /// Whether `address` (normalised) is the mail's From or its Sender.
    func includes(_ address: String) -> Bool { from.contains(address) || sender == address }

    /// The addresses, for messages: "mallory@evil.example", or "nobody" for a mail without From.
    var named: String {
        let all = from + (sender.map { [$0] } ?? [])
        return all.isEmpty ? "nobody (it has no From)" : all.joined(separator: ", ")
    }
}
