import Foundation
import Testing
import ICalendar
@testable import CalendarSync

/// Answering an invitation, as a change to the person's own attendee line.
@Suite struct InvitationReplyTests {
    static let now = DateTimeValue(
        LocalDateTime(year: 2027, month: 1, day: 2, hour: 3, minute: 4, second: 5), form: .utc)

    static func invitation(organizer: String = "mailto:alice@example.com") throws -> Component {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:inv\r\nDTSTAMP:20260101T000000Z\r\n"
            + "SEQUENCE:3\r\nDTSTART:20270301T100000Z\r\nSUMMARY:Review\r\nORGANIZER:\(organizer)\r\n"
            + "ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@example.com\r\n"
            + "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;SCHEDULE-STATUS=1.2:MAILTO:Bob@Example.com\r\n"
            + "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:carol@example.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        return try #require(try ICalendarParser().parse(Data(text.utf8)).components.first)
    }

    static func attendees(_ calendar: Component) -> [String] {
        calendar.components[0].properties.filter { $0.name == "ATTENDEE" }.map { "\($0.parameterText):\($0.value)" }
    }

    @Test func theAnswerChangesOnlyThePersonsOwnLine() throws {
        let before = try Self.invitation()
        let reply = InvitationReply(
            answer: .tentative, addresses: ["mailto:bob@example.com"], comment: "If I can", now: Self.now)
        let after = try reply.applied(to: before, at: 0, uid: "inv")
        let lines = Self.attendees(after)
        #expect(
            lines[1].hasPrefix(";PARTSTAT=TENTATIVE") && !lines[1].contains("RSVP")
                && !lines[1].contains("SCHEDULE-STATUS"), "\(lines)")
        #expect(lines[0] == Self.attendees(before)[0] && lines[2] == Self.attendees(before)[2])
        let event = after.components[0]
        #expect(event["SEQUENCE"]?.value == "3" && event["COMMENT"]?.text == "If I can")
        #expect(event["DTSTAMP"]?.value == "20270102T030405Z" && event["LAST-MODIFIED"]?.value == "20270102T030405Z")
    }

    @Test func anEventThatDoesNotNameThePersonIsRefused() throws {
        let reply = InvitationReply(answer: .accepted, addresses: ["mailto:dave@example.com"], now: Self.now)
        #expect(
            throws: InvitationReply.Refusal.notInvited(
                uid: "inv",
                attendees: [
                    "mailto:alice@example.com", "MAILTO:Bob@Example.com",
                    "mailto:carol@example.com",
                ],
                addresses: ["mailto:dave@example.com"])
        ) {
            _ = try reply.applied(to: try Self.invitation(), at: 0, uid: "inv")
        }
    }

    @Test func aMeetingThePersonOrganizesIsRefused() throws {
        let reply = InvitationReply(answer: .declined, addresses: ["alice@example.com"], now: Self.now)
        #expect(throws: InvitationReply.Refusal.organizer(uid: "inv")) {
            _ = try reply.applied(to: try Self.invitation(), at: 0, uid: "inv")
        }
    }
}
