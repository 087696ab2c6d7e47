import Foundation
import ICalendar
import Testing

@testable import CalendarSync

/// What the index of invitations keeps of a file reads back as it was made, and a damaged form
/// reads as nothing (its file is then read).
struct InvitationFactsTests {
    static let held = InvitationFacts.Held(
        unclaimed: ["u1@example.org", "ü2"],
        invitations: [
            InvitationFacts.Stored(
                invitation: Invitations.Invitation(
                    uid: "m1", summary: "Plan, ünd more", start: "20270301T100000", zone: "Europe/Berlin",
                    startValue: DateTimeValue(
                        LocalDateTime(year: 2027, month: 3, day: 1, hour: 10), form: .zoned(tzid: "Europe/Berlin")),
                    occurrence: "20270308T090000Z",
                    occurrenceStart: DateTimeValue(LocalDateTime(year: 2027, month: 3, day: 8, hour: 9), form: .utc),
                    organizer: "mailto:boss@example.org", recurring: false),
                start: (text: "2027-03-01T10:00:00+01:00", instant: 1_804_496_400),
                occurrence: "2027-03-08T09:00:00Z"),
            InvitationFacts.Stored(
                invitation: Invitations.Invitation(
                    uid: "m2", summary: nil, start: "20270301", zone: nil,
                    startValue: DateTimeValue(date: LocalDate(year: 2027, month: 3, day: 1)), occurrence: nil,
                    occurrenceStart: nil, organizer: nil, recurring: true),
                start: (text: "2027-03-01", instant: 1_803_945_600), occurrence: nil),
            InvitationFacts.Stored(
                invitation: Invitations.Invitation(
                    uid: "m3", summary: "", start: "20270301T080000", zone: nil,
                    startValue: DateTimeValue(LocalDateTime(year: 2027, month: 3, day: 1, hour: 8), form: .floating),
                    occurrence: nil, occurrenceStart: nil, organizer: "mailto:x@example.org", recurring: false),
                start: nil, occurrence: nil),
        ])

    @Test func whatIsKeptReadsBackAsItWasMade() {
        let bytes = InvitationFacts.encode(Self.held)
        let read = bytes.withUnsafeBytes(InvitationFacts.decode)
        #expect(read == Self.held)
        #expect(bytes.withUnsafeBytes(InvitationFacts.summary) == .init(unclaimed: 2, invitations: 3))
        let none = InvitationFacts.encode(InvitationFacts.Held(unclaimed: ["a", "b"]))
        #expect(none.withUnsafeBytes(InvitationFacts.summary) == .init(unclaimed: 2, invitations: 0))
        #expect([UInt8]().withUnsafeBytes(InvitationFacts.decode) == nil)
        #expect(InvitationFacts.encode(InvitationFacts.Held()).withUnsafeBytes(InvitationFacts.decode) == .init())
    }

    @Test func aDamagedFormReadsAsNothing() {
        let bytes = InvitationFacts.encode(Self.held)
        // Cut short anywhere, or with a byte too many, it is not taken.
        for end in stride(from: 0, to: bytes.count, by: 3) {
            #expect(Array(bytes[..<end]).withUnsafeBytes(InvitationFacts.decode) == nil, "cut at \(end)")
            #expect(Array(bytes[..<end]).withUnsafeBytes(InvitationFacts.summary) == nil, "cut at \(end)")
        }
        #expect((bytes + [0]).withUnsafeBytes(InvitationFacts.decode) == nil)
        #expect((bytes + [0]).withUnsafeBytes(InvitationFacts.summary) == nil)
        // A count larger than the bytes could hold.
        var huge = bytes
        huge[0] = 0xFF
        huge[1] = 0xFF
        #expect(huge.withUnsafeBytes(InvitationFacts.decode) == nil)
    }
}
