import Foundation
import Testing

@testable import CalendarSync

/// The answers kept when an organizer's change only cuts a series short, and only then.
@Suite struct SeriesCutShortTests {
    static func meeting(rule: String, start: String = "20270607T090000Z", bob: String, sequence: Int) -> Data {
        Data(
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT", "UID:weekly",
                "DTSTAMP:2026010\(sequence)T000000Z", "DTSTART:\(start)", "DURATION:PT1H", "RRULE:\(rule)",
                "SEQUENCE:\(sequence)", "SUMMARY:Weekly", "ORGANIZER:mailto:alice@example.com",
                "ATTENDEE;PARTSTAT=\(bob);X-SEQUENCE=1:mailto:bob@example.com", "END:VEVENT", "END:VCALENDAR", "",
            ].joined(separator: "\r\n").utf8)
    }

    @Test func aSeriesCutShortKeepsTheAnswers() throws {
        let before = Self.meeting(rule: "FREQ=WEEKLY;COUNT=6", bob: "ACCEPTED", sequence: 2)
        let after = Self.meeting(rule: "FREQ=WEEKLY;UNTIL=20270620T090000Z", bob: "NEEDS-ACTION", sequence: 3)
        let kept = try #require(SeriesCutShort.answersKept(before: before, after: after))
        let text = String(decoding: kept, as: UTF8.self)
        #expect(text.contains("PARTSTAT=ACCEPTED") && text.contains("UNTIL=20270620T090000Z"), "\(text)")
        #expect(text.contains("SEQUENCE:3"), "\(text)")
    }

    @Test func anyOtherChangeAsksAgain() {
        let before = Self.meeting(rule: "FREQ=WEEKLY;COUNT=6", bob: "ACCEPTED", sequence: 2)
        let moved = Self.meeting(
            rule: "FREQ=WEEKLY;COUNT=2", start: "20270607T110000Z", bob: "NEEDS-ACTION", sequence: 3)
        #expect(SeriesCutShort.answersKept(before: before, after: moved) == nil)
        let everyOtherWeek = Self.meeting(rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=2", bob: "NEEDS-ACTION", sequence: 3)
        #expect(SeriesCutShort.answersKept(before: before, after: everyOtherWeek) == nil)
        let sameRule = Self.meeting(rule: "FREQ=WEEKLY;COUNT=6", bob: "NEEDS-ACTION", sequence: 3)
        #expect(SeriesCutShort.answersKept(before: before, after: sameRule) == nil)
    }
}
