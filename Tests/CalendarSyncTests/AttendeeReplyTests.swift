import Foundation
import Testing
import ICalendar
@testable import CalendarSync

/// An attendee's REPLY applied to the organizer's copy of the meeting, and the REPLY an
/// attendee's client sends through its Outbox.
@Suite struct AttendeeReplyTests {
    /// alice, the organizer.
    static let own: Set<String> = [CalendarUser.normalized("mailto:alice@example.net")]

    static func event(sequence: Int, bob: String, alice: String = "ACCEPTED", extra: String = "") -> String {
        "DTSTAMP:20270101T000000Z\r\nDTSTART:20270510T100000Z\r\nDURATION:PT1H\r\nSEQUENCE:\(sequence)\r\n"
            + "ORGANIZER:mailto:alice@example.net\r\nATTENDEE;PARTSTAT=\(alice):mailto:alice@example.net\r\n"
            + "ATTENDEE;PARTSTAT=\(bob);RSVP=TRUE:mailto:bob@example.net\r\n\(extra)"
    }

    static func bobsLine(_ calendar: Component) -> Property? {
        calendar.components(named: "VEVENT").first?.properties.first {
            $0.name == "ATTENDEE" && CalendarUser.normalized($0.value) == "bob@example.net"
        }
    }

    @Test func anAnswerSetsTheAttendeesPartstatAlone() throws {
        let copy = try OrganizerMessageTests.calendar(nil, [Self.event(sequence: 1, bob: "NEEDS-ACTION")])
        // The REPLY names bob in another letter case, and alice as DECLINED: her own line stays.
        let reply = try #require(
            AttendeeReply(
                try OrganizerMessageTests.calendar(
                    "REPLY",
                    [
                        "DTSTAMP:20270102T000000Z\r\nSEQUENCE:1\r\nORGANIZER:mailto:alice@example.net\r\n"
                            + "ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@EXAMPLE.NET\r\n"
                            + "ATTENDEE;PARTSTAT=DECLINED:mailto:alice@example.net\r\n"
                    ])))
        let result = try #require(OrganizerMessageTests.applied(reply.apply(to: copy, own: Self.own)))
        #expect(Self.bobsLine(result)?[parameter: "PARTSTAT"] == "ACCEPTED")
        let alice = result.components(named: "VEVENT").first?.properties.first {
            $0.name == "ATTENDEE" && $0.value == "mailto:alice@example.net"
        }
        #expect(alice?[parameter: "PARTSTAT"] == "ACCEPTED")
        // Applied again, it is stale: the copy says so already.
        #expect(reply.apply(to: result, own: Self.own) == .stale)
    }

    @Test func anAnswerToAnOlderVersionChangesNothing() throws {
        let copy = try OrganizerMessageTests.calendar(nil, [Self.event(sequence: 3, bob: "NEEDS-ACTION")])
        let reply = try #require(
            AttendeeReply(
                try OrganizerMessageTests.calendar(
                    "REPLY", ["SEQUENCE:2\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.net\r\n"])))
        #expect(reply.apply(to: copy, own: Self.own) == .stale)
    }

    @Test func anAnswerToAMeetingTheAccountDoesNotOrganizeIsNotApplicable() throws {
        let copy = try OrganizerMessageTests.calendar(nil, [Self.event(sequence: 1, bob: "NEEDS-ACTION")])
        let reply = try #require(
            AttendeeReply(
                try OrganizerMessageTests.calendar(
                    "REPLY", ["SEQUENCE:1\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.net\r\n"])))
        #expect(reply.apply(to: copy, own: ["bob@example.net"]) == .notApplicable)
        #expect(AttendeeReply(copy) == nil)
    }

    @Test func theOutboxReplyCarriesTheAnswerAndItsComment() throws {
        let copy = try OrganizerMessageTests.calendar(
            nil, [Self.event(sequence: 2, bob: "TENTATIVE", extra: "COMMENT:Maybe\r\nLOCATION:Room 1\r\n")])
        let data = ICalendarSerializer().data([copy])
        let stamp = Date(timeIntervalSince1970: 1_800_000_000)
        let message = try #require(
            OutboxReply.message(from: data, addresses: ["bob@example.net"], now: stamp))
        let reply = try #require(try ICalendarParser().parse(message).calendar)
        #expect(reply["METHOD"]?.value == "REPLY")
        let event = try #require(reply.components(named: "VEVENT").first)
        #expect(event["UID"]?.text == "m1" && event["SEQUENCE"]?.value == "2")
        #expect(event["DTSTAMP"]?.value == UploadForm.utcStamp(stamp))
        #expect(event["COMMENT"]?.text == "Maybe" && event["LOCATION"] == nil)
        let attendees = event.properties.filter { $0.name == "ATTENDEE" }
        #expect(attendees.count == 1 && attendees.first?.value == "mailto:bob@EXAMPLE.NET", "\(attendees)")
        #expect(attendees.first?[parameter: "PARTSTAT"] == "TENTATIVE" && attendees.first?[parameter: "RSVP"] == nil)
        // A decline sends DECLINED and no comment of an earlier answer.
        let decline = try #require(
            OutboxReply.message(from: data, addresses: ["bob@example.net"], partstat: "DECLINED", now: stamp))
        let declined = try #require(try ICalendarParser().parse(decline).calendar?.components(named: "VEVENT").first)
        #expect(declined["COMMENT"] == nil)
        #expect(declined.properties.first { $0.name == "ATTENDEE" }?[parameter: "PARTSTAT"] == "DECLINED")
        // A meeting that does not name the account has no REPLY.
        #expect(OutboxReply.message(from: data, addresses: ["carol@example.net"]) == nil)
    }
}
