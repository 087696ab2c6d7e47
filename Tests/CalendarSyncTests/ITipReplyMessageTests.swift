import CalgwTestSupport
import Foundation
import ICalendar
import Testing
@testable import CalendarSync

/// The REPLY an attendee mails: the meeting's identity and the attendee's own line only, and
/// the mail command that hands it over.
@Suite struct ITipReplyMessageTests {
    static let copy = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:m1\r
        DTSTAMP:20270101T090000Z\r
        SEQUENCE:2\r
        DTSTART:20270110T090000Z\r
        DURATION:PT1H\r
        SUMMARY:Planning\r
        DESCRIPTION:Agenda\r
        ORGANIZER;CN=Alice:mailto:alice@example.org\r
        ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@example.org\r
        ATTENDEE;PARTSTAT=ACCEPTED;RSVP=TRUE;SCHEDULE-STATUS=1.2:mailto:bob@example.net\r
        ATTENDEE;PARTSTAT=DECLINED:mailto:carol@example.com\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT5M\r
        DESCRIPTION:x\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func aReplyCarriesTheMeetingAndTheAttendeesOwnLineOnly() throws {
        let copy = try #require(try ICalendarParser().parse(Self.copy).calendar)
        let now = DateTimeValue(LocalDateTime(secondsSinceEpoch: 1_800_000_000), form: .utc)
        let reply = try #require(
            ITipReplyMessage.reply(
                to: copy, uid: "m1", recurrenceID: nil, own: ["bob@example.net"], comment: "See you", now: now))
        #expect(reply["METHOD"]?.value == "REPLY")
        let event = try #require(reply.components.first { $0.name == "VEVENT" })
        let attendees = event.properties(named: "ATTENDEE")
        #expect(attendees.count == 1 && attendees[0].value == "mailto:bob@example.net")
        #expect(attendees[0][parameter: "PARTSTAT"] == "ACCEPTED" && attendees[0][parameter: "RSVP"] == nil)
        #expect(attendees[0][parameter: "SCHEDULE-STATUS"] == nil)
        #expect(event["SEQUENCE"]?.value == "2" && event["ORGANIZER"] != nil && event["COMMENT"]?.text == "See you")
        #expect(event["DESCRIPTION"] == nil && event.components.isEmpty, "no notes, no alarms")
        #expect(event["DTSTAMP"]?.value != "20270101T090000Z")
        #expect(
            ITipReplyMessage.reply(to: copy, uid: "m1", recurrenceID: nil, own: ["eve@x"], comment: nil, now: now)
                == nil)
        #expect(
            ITipReplyMessage.reply(
                to: copy, uid: "m1", recurrenceID: "20270117T090000Z", own: ["bob@example.net"],
                comment: nil, now: now) == nil)
    }

    @Test func theMailCommandGetsTheWholeMessageAndItsFailureIsSaid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("sent.eml")
        let message = Data((0..<20_000).map { "line \($0)\r\n" }.joined().utf8)
        try MailCommand(["/bin/sh", "-c", "cat > '\(file.path)'"]).send(message)
        #expect(try Data(contentsOf: file) == message)
        let error = #expect(throws: MailCommand.Failure.self) {
            try MailCommand(["sh", "-c", "cat >/dev/null; echo 'relay refused' >&2; exit 75"]).send(message)
        }
        #expect(error?.description.contains("exit 75") == true && error?.description.contains("relay refused") == true)
        #expect(throws: MailCommand.Failure.self) { try MailCommand(["/nonexistent/sendmail"]).send(message) }
    }
}
