import Foundation
import Testing
import ICalendar
@testable import CalendarSync

/// The pure parts of a person's action on a meeting: what an organizer's change carries
/// (``OrganizerChange``), what an attendee may change (``AttendeeChange``), how `--attendee`
/// reads a person (``Invitee``) and what the server's marks say was sent (``SchedulingReport``).
@Suite struct MeetingActionTests {
    static func meeting(
        sequence: Int = 0, start: String = "20270301T100000Z", bob: String = "ACCEPTED", extra: [String] = []
    ) throws -> Component {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:m\r\nDTSTAMP:20260101T000000Z\r\n"
            + "SEQUENCE:\(sequence)\r\nDTSTART:\(start)\r\nDTEND:20270301T110000Z\r\nSUMMARY:Review\r\nORGANIZER:mailto:alice@example.com\r\n"
            + "ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@example.com\r\n"
            + "ATTENDEE;PARTSTAT=\(bob);SCHEDULE-STATUS=1.2:mailto:bob@example.com\r\n"
            + extra.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        return try #require(try ICalendarParser().parse(Data(text.utf8)).components.first)
    }

    static func attendee(_ who: String, in calendar: Component) -> Property? {
        calendar.components[0].properties.first { $0.name == "ATTENDEE" && $0.value.hasSuffix(who) }
    }

    @Test func theFirstAnnouncedChangeGoesPastTheSequenceAServerDelivered() throws {
        let before = try Self.meeting(sequence: 0)
        var after = before
        after.components[0].set(Property(name: "SEQUENCE", value: "1"))
        after.components[0].set(.text("LOCATION", "Room 4"))
        let announced = OrganizerChange(before: before, organizer: ["alice@example.com"]).announced(after)
        #expect(announced.components[0]["SEQUENCE"]?.value == "2")
        // A new place keeps the answers.
        #expect(Self.attendee("bob@example.com", in: announced)?[parameter: "PARTSTAT"] == "ACCEPTED")

        // Past 1 the bump is the editor's own; an unchanged SEQUENCE (a moved override) stays.
        let later = try Self.meeting(sequence: 4)
        var bumped = later
        bumped.components[0].set(Property(name: "SEQUENCE", value: "5"))
        bumped.components[0].set(.text("LOCATION", "Room 5"))
        #expect(OrganizerChange(before: later, organizer: []).announced(bumped).components[0]["SEQUENCE"]?.value == "5")
    }

    @Test func aNewTimeAsksEveryoneButTheOrganizerAgain() throws {
        let before = try Self.meeting(sequence: 2)
        var after = before
        after.components[0].set(Property(name: "DTSTART", value: "20270302T100000Z"))
        let announced = OrganizerChange(before: before, organizer: ["alice@example.com"]).announced(after)
        let bob = Self.attendee("bob@example.com", in: announced)
        #expect(bob?[parameter: "PARTSTAT"] == "NEEDS-ACTION" && bob?[parameter: "RSVP"] == "TRUE")
        #expect(Self.attendee("alice@example.com", in: announced)?[parameter: "PARTSTAT"] == "ACCEPTED")
        // A rule only shortened (a split's old half) moves nobody.
        let series = try Self.meeting(extra: ["RRULE:FREQ=DAILY;COUNT=10"])
        var ended = series
        ended.components[0].set(Property(name: "RRULE", value: "FREQ=DAILY;COUNT=3"))
        #expect(
            Self.attendee("bob@example.com", in: OrganizerChange(before: series, organizer: []).announced(ended))?[
                parameter: "PARTSTAT"] == "ACCEPTED")
    }

    @Test func anAttendeesOwnChangesAreAlarmsTranspAndCategories() throws {
        let before = try Self.meeting()
        var own = before
        own.components[0].components.append(
            Component(
                name: "VALARM",
                properties: [
                    Property(name: "ACTION", value: "DISPLAY"),
                    Property(name: "TRIGGER", value: "-PT5M"),
                ]))
        own.components[0].set(Property(name: "TRANSP", value: "TRANSPARENT"))
        own.components[0].set(Property(name: "SEQUENCE", value: "7"))
        #expect(AttendeeChange.organizersFields(before: before, after: own).isEmpty)
        #expect(AttendeeChange.keepingSequence(of: before, in: own).components[0]["SEQUENCE"]?.value == "0")
        var moved = before
        moved.components[0].set(Property(name: "DTSTART", value: "20270301T120000Z"))
        moved.components[0].set(.text("SUMMARY", "Mine"))
        #expect(AttendeeChange.organizersFields(before: before, after: moved) == ["DTSTART", "SUMMARY"])
    }

    @Test func anInviteeIsReadAsMailProgramsWriteThemAndInvitedOnce() throws {
        #expect(
            Invitee(parsing: "Bob Lee <bob@example.org>") == Invitee(address: "mailto:bob@example.org", name: "Bob Lee")
        )
        #expect(Invitee(parsing: "mailto:bob@example.org") == Invitee(address: "mailto:bob@example.org"))
        #expect(Invitee(parsing: "bob@example.org")?.address == "mailto:bob@example.org")
        #expect(Invitee(parsing: "not an address") == nil && Invitee(parsing: "Bob <not an address>") == nil)
        let distinct = Invitee.distinct(
            [
                Invitee(address: "bob@example.org"), Invitee(address: "BOB@Example.org"),
                Invitee(address: "alice@example.org"),
            ], organizer: "mailto:alice@example.org")
        #expect(distinct == [Invitee(address: "bob@example.org")])
        #expect(Invitee(address: "bob@example.org", name: "Bob").attendee.parameterText.contains("CN=Bob"))
    }

    @Test func theServersMarksSayWhatWasSent() throws {
        let stored = try Self.meeting(extra: [
            "ATTENDEE;PARTSTAT=NEEDS-ACTION;SCHEDULE-STATUS=5.1:mailto:carol@example.com",
            "ATTENDEE:mailto:dave@example.com",
        ])
        let recipients = SchedulingReport.recipients(of: .update, in: stored, uid: "m")
        #expect(
            recipients.map(\.address) == [
                "mailto:bob@example.com", "mailto:carol@example.com", "mailto:dave@example.com",
            ])
        #expect(recipients.map(\.delivered) == [true, false, nil])
        let report = SchedulingReport(message: .update, asked: true, recipients: recipients)
        #expect(
            report.lines == [
                "update sent to bob@example.com", "update to carol@example.com not delivered (SCHEDULE-STATUS 5.1)",
                "update to dave@example.com not sent by the server",
            ])
        // A server that marks nobody says nothing of what it sent.
        let unmarked = recipients.map { SchedulingReport.Recipient(address: $0.address, status: nil) }
        #expect(
            SchedulingReport(message: .update, asked: true, recipients: unmarked).lines.last
                == "update to dave@example.com asked of the server")
        #expect(
            SchedulingReport.recipients(of: .reply, in: stored, uid: "m").map(\.address) == ["mailto:alice@example.com"]
        )
        #expect(SchedulingReport(message: .reply, asked: false, reason: "off", recipients: recipients).lines.isEmpty)
    }
}
