import Foundation
import Testing
import ICalendar
@testable import CalendarSync

/// What DAViCal's update to an attendee leaves out of an organizer's change, and the whole
/// version calgw sends such an attendee by the organizer's Outbox instead.
@Suite struct OutboxRequestTests {
    /// alice, the organizer.
    static let own: Set<String> = ["alice@example.net"]

    /// A weekly meeting of alice's with bob (and carol when `carol`), `extra` lines in its
    /// series, `overrides` events after it.
    static func meeting(
        sequence: Int = 1, extra: String = "", carol: Bool = false, marks: String = "", overrides: [String] = []
    ) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        text += "BEGIN:VEVENT\r\nUID:m\r\nDTSTAMP:20270102T100000Z\r\nSEQUENCE:\(sequence)\r\n"
        text += "DTSTART:20270301T100000Z\r\nDTEND:20270301T110000Z\r\nRRULE:FREQ=WEEKLY;COUNT=8\r\n"
        text += "SUMMARY:Weekly\r\nORGANIZER:mailto:alice@example.net\r\n"
        text += "ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@example.net\r\n"
        text += "ATTENDEE;PARTSTAT=ACCEPTED\(marks):mailto:bob@example.net\r\n"
        if carol { text += "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:carol@example.net\r\n" }
        text += extra
        text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nDESCRIPTION:x\r\nEND:VALARM\r\nEND:VEVENT\r\n"
        for override in overrides {
            text += "BEGIN:VEVENT\r\nUID:m\r\nDTSTAMP:20270102T100000Z\r\nSEQUENCE:\(sequence)\r\n\(override)"
            text += "ORGANIZER:mailto:alice@example.net\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.net\r\n"
            text += "END:VEVENT\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    static func calendar(_ text: String) throws -> Component {
        try #require(try ICalendarParser().parse(Data(text.utf8)).components.first)
    }

    @Test func whatDAViCalCarriesIsNotLeftOut() throws {
        let before = try Self.calendar(Self.meeting(sequence: 1))
        // A move, a new title, another answer, new delivery marks, another alarm: all carried
        // (or the organizer's own).
        let moved = Self.meeting(sequence: 2, marks: ";SCHEDULE-STATUS=1.2")
            .replacingOccurrences(of: "DTSTART:20270301T100000Z", with: "DTSTART:20270301T140000Z")
            .replacingOccurrences(of: "SUMMARY:Weekly", with: "SUMMARY:Weekly sync")
            .replacingOccurrences(of: "TRIGGER:-PT5M", with: "TRIGGER:-PT15M")
        #expect(!DAViCalAttendeeUpdate.leavesOut(before: before, after: try Self.calendar(moved)))
    }

    @Test func aCancelledOccurrenceAShortenedSeriesAndAnOverrideAreLeftOut() throws {
        let before = try Self.calendar(Self.meeting(sequence: 1))
        let cancelled = Self.meeting(sequence: 2, extra: "EXDATE:20270315T100000Z\r\n")
        let shortened = Self.meeting(sequence: 2)
            .replacingOccurrences(of: "COUNT=8", with: "UNTIL=20270322T100000Z")
        let overridden = Self.meeting(
            sequence: 2, overrides: ["RECURRENCE-ID:20270308T100000Z\r\nDTSTART:20270308T120000Z\r\nDURATION:PT1H\r\n"])
        for after in [cancelled, shortened, overridden] {
            #expect(DAViCalAttendeeUpdate.leavesOut(before: before, after: try Self.calendar(after)), "\(after)")
        }
    }

    @Test func onlyTheAttendeesInvitedBeforeGetTheWholeVersion() throws {
        let before = try Self.calendar(Self.meeting(sequence: 1))
        // carol is new (DAViCal sends her the whole version itself); alice is the organizer.
        let after = try Self.calendar(Self.meeting(sequence: 2, carol: true))
        #expect(
            DAViCalAttendeeUpdate.earlierAttendees(before: before, after: after, own: Self.own) == ["bob@example.net"])
        // An attendee the organizer's client schedules for is not the server's to send to.
        let clientScheduled = try Self.calendar(Self.meeting(sequence: 2, marks: ";SCHEDULE-AGENT=CLIENT"))
        #expect(DAViCalAttendeeUpdate.earlierAttendees(before: before, after: clientScheduled, own: Self.own).isEmpty)
    }

    @Test func eachEventGoesAloneToTheOnePersonInTheFormDAViCalsOutboxDelivers() throws {
        let data = Data(
            Self.meeting(
                sequence: 2, extra: "EXDATE:20270315T100000Z\r\n", carol: true, marks: ";SCHEDULE-STATUS=1.2",
                overrides: ["RECURRENCE-ID:20270308T100000Z\r\nDTSTART:20270308T120000Z\r\nDURATION:PT1H\r\n"]
            ).utf8)
        let stamp = Date(timeIntervalSince1970: 1_800_000_000)
        let messages = OutboxRequest.messages(from: data, to: "bob@example.net", own: Self.own, stamp: stamp)
        #expect(messages.count == 2)
        let parsed = try messages.map { try Self.calendar(String(decoding: $0, as: UTF8.self)) }
        for (index, message) in parsed.enumerated() {
            #expect(message["METHOD"]?.value == "REQUEST")
            let events = message.components(named: "VEVENT")
            #expect(events.count == 1)
            let event = try #require(events.first)
            #expect(event["DTSTAMP"]?.value == UploadForm.utcStamp(stamp.addingTimeInterval(Double(index))))
            #expect(event.components(named: "VALARM").isEmpty)
            // The organizer as DAViCal does not compare it equal to its own principal.
            #expect(event["ORGANIZER"]?.value == "mailto:alice@EXAMPLE.NET")
            let people = Dictionary(
                event.properties(named: "ATTENDEE").map { (CalendarUser.normalized($0.value), $0) },
                uniquingKeysWith: { a, _ in a })
            let bob = try #require(people["bob@example.net"])
            #expect(bob[parameter: "PARTSTAT"] == "NEEDS-ACTION")
            #expect(bob[parameter: "SCHEDULE-STATUS"] == nil)
            if index == 0 {
                #expect(people["alice@example.net"]?.value == "mailto:alice@EXAMPLE.NET")
                #expect(event["RECURRENCE-ID"] == nil)
                #expect(event["EXDATE"]?.value == "20270315T100000Z")
                // carol waits for an answer: marked so that DAViCal skips her.
                #expect(people["carol@example.net"]?[parameter: "SCHEDULE-STATUS"] == "5.3")
            } else {
                #expect(event["RECURRENCE-ID"]?.value == "20270308T100000Z")
            }
        }
    }

    @Test func theMessageComesAfterTheOrganizersVersion() throws {
        let calendar = try Self.calendar(Self.meeting())
        let stamped = Date(timeIntervalSince1970: 1_798_884_000)  // 20270102T100000Z
        #expect(CalDAVStorage.stampAfter(calendar, now: stamped) == stamped.addingTimeInterval(1))
        let later = stamped.addingTimeInterval(60)
        #expect(CalDAVStorage.stampAfter(calendar, now: later) == later)
    }

    @Test func aMessageSentByTheOutboxIsSpelledBack() throws {
        var message = try Self.calendar(
            Self.meeting().replacingOccurrences(of: "alice@example.net", with: "alice@EXAMPLE.NET"))
        UploadForm.spellAddressesBack(&message)
        let event = try #require(message.components(named: "VEVENT").first)
        #expect(event["ORGANIZER"]?.value == "mailto:alice@example.net")
        #expect(event.properties(named: "ATTENDEE").allSatisfy { !$0.value.contains("EXAMPLE") })
    }
}
