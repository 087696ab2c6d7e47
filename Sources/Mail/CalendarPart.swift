/// One `text/calendar` (or `application/ics`) part of a mail, decoded to text.
public struct CalendarPart: Sendable, Equatable {
    /// The `method=` parameter of the part's Content-Type, upper-cased (`REQUEST`, `REPLY`,
    /// `CANCEL`), or nil when there is none (attachments and bare iCalendar objects often have
    /// none). RFC 6047 §2.4 wants it to equal the object's METHOD property; where they differ,
    /// the object's is the one to believe.
    public var method: String?
    /// Whether the part is an attachment: its Content-Disposition says `attachment`, or it has a
    /// file name (Content-Disposition's `filename` or Content-Type's `name`).
    public var isAttachment: Bool
    /// The file name the part carries, if any (`invite.ics`).
    public var filename: String?
    /// The iCalendar object, transfer encoding undone and decoded from its charset.
    public var text: String

    public init(method: String?, isAttachment: Bool, filename: String? = nil, text: String) {
        self.method = method
        self.isAttachment = isAttachment
        self.filename = filename
        self.text = text
    }

    /// The calendar part of `part`, or nil when `part` is not one.
    /// - Throws: ``MailError`` when its transfer encoding or charset cannot be undone.
    init?(_ part: MIMEPart) throws {
        guard part.children.isEmpty, ["text/calendar", "application/ics"].contains(part.contentType.value) else {
            return nil
        }
        let encoding = try TransferEncoding(header: part.headers.value("Content-Transfer-Encoding"))
        let charset = try Charset(name: part.contentType.parameters["charset"])
        let disposition = part.headers.value("Content-Disposition").map(HeaderParameters.init)
        let filename = disposition?.parameters["filename"] ?? part.contentType.parameters["name"]
        self.init(
            method: part.contentType.parameters["method"]?.trimmingWhitespace().uppercased(),
            isAttachment: disposition?.value == "attachment" || filename != nil,
            filename: filename.map(EncodedWords.decode),
            text: charset.decode(try encoding.decode(part.body)))
    }
}
