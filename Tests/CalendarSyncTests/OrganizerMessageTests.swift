import Foundation
import Testing
import ICalendar
@testable import CalendarSync

/// An organizer's REQUEST or CANCEL applied to the attendee's copy of the meeting.
@Suite struct OrganizerMessageTests {
    static let own: Set<String> = [CalendarUser.normalized("mailto:bob@example.net")]

    /// A VCALENDAR of `events` (VEVENT bodies without BEGIN/END), with `METHOD` when given.
    static func calendar(_ method: String? = nil, _ events: [String]) throws -> Component {
        let body = events.map { "BEGIN:VEVENT\r\nUID:m1\r\n\($0)END:VEVENT\r\n" }.joined()
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
            + (method.map { "METHOD:\($0)\r\n" } ?? "") + body + "END:VCALENDAR\r\n"
        return try #require(try ICalendarParser().parse(text).calendar)
    }

    static func event(
        sequence: Int, stamp: String = "20270101T000000Z", start: String = "20270510T100000Z",
        bob: String = "ACCEPTED", organizer: String = "mailto:alice@example.net", extra: String = ""
    ) -> String {
        "DTSTAMP:\(stamp)\r\nDTSTART:\(start)\r\nDURATION:PT1H\r\nRRULE:FREQ=DAILY;COUNT=5\r\nSEQUENCE:\(sequence)\r\n"
            + "ORGANIZER:\(organizer)\r\nATTENDEE;PARTSTAT=\(bob):mailto:bob@example.net\r\n\(extra)"
    }

    static func applied(_ outcome: OrganizerMessage.Outcome) -> Component? {
        if case .applied(let calendar) = outcome { return calendar }
        return nil
    }

    @Test func aRequestThatKeepsTheTimeKeepsTheAnswer() throws {
        let copy = try Self.calendar(nil, [Self.event(sequence: 1)])
        let message = try #require(
            OrganizerMessage(
                try Self.calendar(
                    "REQUEST", [Self.event(sequence: 2, bob: "NEEDS-ACTION", extra: "LOCATION:Room 2\r\n")])))
        let result = try #require(Self.applied(message.apply(to: copy, own: Self.own)))
        let event = try #require(result.components(named: "VEVENT").first)
        #expect(event["LOCATION"]?.text == "Room 2")
        #expect(OwnPart.attendee(event, addresses: Self.own)?.answer == "ACCEPTED")
    }

    @Test func aRequestThatMovesTheMeetingAsksAgain() throws {
        let copy = try Self.calendar(nil, [Self.event(sequence: 1)])
        let message = try #require(
            OrganizerMessage(try Self.calendar("REQUEST", [Self.event(sequence: 2, start: "20270510T120000Z")])))
        let result = try #require(Self.applied(message.apply(to: copy, own: Self.own)))
        let event = try #require(result.components(named: "VEVENT").first)
        #expect(event["DTSTART"]?.value == "20270510T120000Z")
        #expect(OwnPart.attendee(event, addresses: Self.own)?.answer == "NEEDS-ACTION")
    }

    @Test func anOlderMessageIsStale() throws {
        let copy = try Self.calendar(nil, [Self.event(sequence: 2, stamp: "20270105T000000Z")])
        for (sequence, stamp) in [(1, "20270109T000000Z"), (2, "20270104T000000Z"), (2, "20270105T000000Z")] {
            let message = try #require(
                OrganizerMessage(
                    try Self.calendar(
                        "REQUEST", [Self.event(sequence: sequence, stamp: stamp, start: "20270510T120000Z")])))
            #expect(message.apply(to: copy, own: Self.own) == .stale, "\(sequence) \(stamp)")
        }
    }

    @Test func aMessageFromAnyoneButTheOrganizerIsNotApplied() throws {
        let copy = try Self.calendar(nil, [Self.event(sequence: 1)])
        let message = try #require(
            OrganizerMessage(
                try Self.calendar(
                    "CANCEL", [Self.event(sequence: 5, organizer: "mailto:mallory@example.net")])))
        #expect(message.apply(to: copy, own: Self.own) == .notApplicable)
    }

    @Test func aCancelledOccurrenceBecomesAnExdate() throws {
        let override =
            "RECURRENCE-ID:20270512T100000Z\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:20270512T110000Z\r\n"
            + "DURATION:PT1H\r\nSEQUENCE:1\r\nORGANIZER:mailto:alice@example.net\r\n"
        let copy = try Self.calendar(nil, [Self.event(sequence: 1), override])
        let cancel = override.replacingOccurrences(of: "SEQUENCE:1", with: "SEQUENCE:2")
        let message = try #require(OrganizerMessage(try Self.calendar("CANCEL", [cancel])))
        let result = try #require(Self.applied(message.apply(to: copy, own: Self.own)))
        let events = result.components(named: "VEVENT")
        #expect(events.count == 1)
        #expect(events.first?["EXDATE"]?.value == "20270512T100000Z")
    }

    @Test func aCancelledMeetingIsMarkedCancelledAndKept() throws {
        let copy = try Self.calendar(nil, [Self.event(sequence: 2)])
        let message = try #require(OrganizerMessage(try Self.calendar("CANCEL", [Self.event(sequence: 2)])))
        let result = try #require(Self.applied(message.apply(to: copy, own: Self.own)))
        #expect(result.components(named: "VEVENT").first?["STATUS"]?.value == "CANCELLED")
        let again = try #require(OrganizerMessage(try Self.calendar("CANCEL", [Self.event(sequence: 2)])))
        #expect(again.apply(to: result, own: Self.own) == .stale)
    }
}
