import Foundation
import Mail
import Testing

/// A composed scheduling message reads back the same through the mail reader and through
/// Python's email package with icalendar.
@Suite struct SchedulingMailTests {
    static let calendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//EN", "METHOD:REQUEST", "BEGIN:VEVENT",
        "UID:review-2025@example.com", "DTSTAMP:20250601T080000Z", "DTSTART;TZID=Europe/Paris:20250603T090000",
        "DTEND;TZID=Europe/Paris:20250603T100000", "SUMMARY:Revue de l’année",
        "ORGANIZER;CN=Alice:mailto:alice@example.com",
        "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.org",
        "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:carol@example.net", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    static let mail = SchedulingMail(
        from: MailAddress(address: "alice@example.com", name: "Alice Émile"),
        to: [
            MailAddress(address: "bob@example.org", name: "Bob, the builder"),
            MailAddress(address: "carol@example.net"),
        ],
        subject: "Invitation : Revue de l’année", text: "Revue de l’année\nMardi 3 juin, 9 h à 10 h (Paris)\n",
        calendar: calendar, method: "request", date: Date(timeIntervalSince1970: 1_748_941_200),
        messageID: "<review-2025@example.com>")

    @Test func ourReaderReadsWhatWasComposed() throws {
        let message = try MailMessage.parse(Self.mail.bytes)
        #expect(message.from == MailAddress(address: "alice@example.com", name: "Alice Émile"))
        #expect(message.to.map(\.address) == Self.mail.recipients)
        #expect(message.to.first?.name == "Bob, the builder")
        #expect(message.subject == "Invitation : Revue de l’année")
        #expect(message.messageID == "<review-2025@example.com>")
        #expect(message.header("Date") == "Tue, 03 Jun 2025 09:00:00 +0000")
        #expect(message.header("mime-version") == "1.0")
        let part = try #require(message.calendarPart)
        #expect(part.method == "REQUEST")
        #expect(!part.isAttachment)
        #expect(part.text == Self.calendar)
    }

    @Test func pythonReadsWhatWasComposed() async throws {
        let python = try #require(try await MailOracle.read(messages: [Self.mail.bytes]).first)
        #expect(python.error == nil, "\(python.error ?? "")")
        #expect(python.from == "alice@example.com")
        #expect(python.to == ["bob@example.org", "carol@example.net"])
        #expect(python.subject == "Invitation : Revue de l’année")
        // The inline part with its method, and the same object as the invite.ics attachment.
        #expect(python.calendars?.map(\.method) == ["REQUEST", nil])
        #expect(python.calendars?.allSatisfy { $0.text == Self.calendar } == true)
        #expect(python.objectMethod == "REQUEST")
        #expect(python.uid == "review-2025@example.com")
        #expect(python.dtstart == "20250603T090000")
        #expect(python.tzid == "Europe/Paris")
    }

    @Test func theCalendarPartGoesAs8bitWhenItIsFoldedCRLFText() throws {
        let text = String(decoding: Self.mail.bytes, as: UTF8.self)
        #expect(
            text.contains(
                "Content-Type: text/calendar; charset=utf-8; method=REQUEST\r\nContent-Transfer-Encoding: 8bit\r\n"))
        #expect(text.contains("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n"))
        #expect(!text.contains("Subject: Invitation : Revue"), "a non-ASCII subject is encoded")
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 998 && !$0.contains("\n") && !$0.contains("\r") })
    }

    @Test func aCalendarWithBareLineFeedsOrLongLinesGoesAsBase64() async throws {
        let lf = Self.calendar.replacingOccurrences(of: "\r\n", with: "\n")
        let long = Self.calendar.replacingOccurrences(
            of: "SUMMARY:", with: "SUMMARY:" + String(repeating: "é", count: 600))
        for calendar in [lf, long] {
            let mail = SchedulingMail(
                from: MailAddress(address: "alice@example.com"), to: [MailAddress(address: "bob@example.org")],
                subject: "Review", text: "Review", calendar: calendar, method: "CANCEL")
            let text = String(decoding: mail.bytes, as: UTF8.self)
            #expect(text.contains("method=CANCEL\r\nContent-Transfer-Encoding: base64\r\n"))
            #expect(try MailMessage.parse(mail.bytes).calendarPart?.text == calendar)
            let python = try #require(try await MailOracle.read(messages: [mail.bytes]).first)
            #expect(python.calendars?.first?.text == calendar)
            #expect(python.calendars?.first?.method == "CANCEL")
        }
    }

    @Test func aRandomMessageIDIsAtTheSendersDomain() {
        let mail = SchedulingMail(
            from: MailAddress(address: "alice@example.com"), to: [], subject: "s", text: "t", calendar: "c",
            method: "REPLY")
        #expect(mail.messageID.hasPrefix("<") && mail.messageID.hasSuffix("@example.com>"))
        #expect(mail.method == "REPLY")
    }
}
