import ICalendar
import Testing
@testable import CalendarSync

/// RFC 5546's processing of messages that came by mail, on the vdir's copy: REQUEST, CANCEL and
/// REPLY in order of SEQUENCE and DTSTAMP, and the refusals of what a sender may not change.
@Suite struct ITipMessageTests {
    static let bob: Set<String> = ["bob@example.net"]
    static let alice: Set<String> = ["alice@example.org"]

    /// A message (or, with `method` nil, a copy) of meeting `uid`.
    static func meeting(
        _ method: String?, uid: String = "m1", sequence: Int = 0, stamp: String = "20270101T090000Z",
        start: String = "20270110T090000Z", organizer: String = "mailto:alice@example.org",
        attendees: [String] = ["ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.net"],
        extra: [String] = [], events: String? = nil
    ) -> String {
        let event =
            events
            ?? ([
                "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:\(stamp)", "SEQUENCE:\(sequence)", "DTSTART:\(start)",
                "DURATION:PT1H", "SUMMARY:Planning", "ORGANIZER:\(organizer)",
            ] + attendees + extra + ["END:VEVENT"]).joined(separator: "\r\n")
        return
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + (method.map { ["METHOD:\($0)"] } ?? [])
            + [event, "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    static func parsed(_ text: String) throws -> Component {
        try #require(try ICalendarParser().parse(text).calendar)
    }

    static func partstat(_ calendar: Component?, of address: String) -> String? {
        calendar?.components.first { $0.name == "VEVENT" }?.properties.first {
            $0.name == "ATTENDEE" && CalendarUser.normalized($0.value) == address
        }?[parameter: "PARTSTAT"]
    }

    @Test func aRequestNamingTheUserAddsTheInvitationWithoutItsMethod() throws {
        let message = try ITipMessage(text: Self.meeting("REQUEST"), declared: "REQUEST")
        let outcome = message.apply(to: nil, sender: "alice@example.org", own: Self.bob)
        #expect(outcome.action == "added")
        #expect(outcome.copy?["METHOD"] == nil && Self.partstat(outcome.copy, of: "bob@example.net") == "NEEDS-ACTION")
        let stranger = message.apply(to: nil, sender: "alice@example.org", own: ["carol@example.com"])
        #expect(stranger.action == "refused" && stranger.reason?.contains("names none of your addresses") == true)
    }

    @Test func aNewerRequestKeepsTheAnswerUnlessTheMeetingMoved() throws {
        let copy = try Self.parsed(
            Self.meeting(nil, attendees: ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.net"]))
        let renamed = try ITipMessage(
            text: Self.meeting("REQUEST", sequence: 1, extra: ["LOCATION:Room 2"]), declared: nil)
        let kept = renamed.apply(to: copy, sender: nil, own: Self.bob)
        #expect(kept.action == "updated" && Self.partstat(kept.copy, of: "bob@example.net") == "ACCEPTED")
        let moved = try ITipMessage(
            text: Self.meeting("REQUEST", sequence: 1, start: "20270110T100000Z"), declared: nil)
        let asked = moved.apply(to: copy, sender: nil, own: Self.bob)
        #expect(asked.action == "updated" && Self.partstat(asked.copy, of: "bob@example.net") == "NEEDS-ACTION")
        let again = try ITipMessage(text: Self.meeting("REQUEST"), declared: nil).apply(
            to: copy, sender: nil, own: Self.bob)
        #expect(again.action == "unchanged", "a repeated message changes nothing")
        let later = try ITipMessage(text: Self.meeting("REQUEST", stamp: "20270102T090000Z"), declared: nil)
        #expect(later.apply(to: copy, sender: nil, own: Self.bob).action == "updated", "same SEQUENCE, later DTSTAMP")
    }

    @Test func aRequestForAMeetingHeldFromAnotherOrganizerIsRefused() throws {
        let copy = try Self.parsed(Self.meeting(nil))
        let hijack = try ITipMessage(
            text: Self.meeting("REQUEST", sequence: 5, organizer: "mailto:mallory@evil.example"), declared: nil)
        let outcome = hijack.apply(to: copy, sender: "mallory@evil.example", own: Self.bob)
        #expect(outcome.action == "refused" && outcome.reason?.contains("from alice@example.org") == true)
    }

    @Test func aCancelMarksTheMeetingOrItsOccurrence() throws {
        let series = Self.meeting(nil, extra: ["RRULE:FREQ=WEEKLY;COUNT=4"])
        let copy = try Self.parsed(series)
        let whole = try ITipMessage(text: Self.meeting("CANCEL", sequence: 1), declared: nil)
        let cancelled = whole.apply(to: copy, sender: nil, own: Self.bob)
        #expect(cancelled.action == "cancelled")
        #expect(cancelled.copy?.components.first { $0.name == "VEVENT" }?["STATUS"]?.value == "CANCELLED")
        let one = try ITipMessage(
            text: Self.meeting("CANCEL", sequence: 1, extra: ["RECURRENCE-ID:20270117T090000Z"]), declared: nil)
        let exdate = one.apply(to: copy, sender: nil, own: Self.bob)
        #expect(exdate.action == "cancelled" && one.recurrenceID == "20270117T090000Z")
        #expect(exdate.copy?.components.first { $0.name == "VEVENT" }?["EXDATE"]?.value == "20270117T090000Z")
        let unknown = whole.apply(to: nil, sender: nil, own: Self.bob)
        #expect(unknown.action == "unchanged")
    }

    @Test func aReplyIsRecordedOnlyFromTheInvitedAttendeeItAnswersFor() throws {
        let organized = try Self.parsed(Self.meeting(nil))
        let accepted = try ITipMessage(
            text: Self.meeting("REPLY", attendees: ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.net"]), declared: nil
        )
        let recorded = accepted.apply(to: organized, sender: "bob@example.net", own: Self.alice)
        #expect(
            recorded.action == "answer recorded" && Self.partstat(recorded.copy, of: "bob@example.net") == "ACCEPTED")
        let forged = accepted.apply(to: organized, sender: "mallory@evil.example", own: Self.alice)
        #expect(forged.action == "refused" && forged.reason?.contains("answers for bob@example.net") == true)
        let stranger = try ITipMessage(
            text: Self.meeting("REPLY", attendees: ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:eve@example.com"]), declared: nil
        )
        #expect(stranger.apply(to: organized, sender: "eve@example.com", own: Self.alice).action == "refused")
        #expect(
            accepted.apply(to: organized, sender: "bob@example.net", own: Self.bob).action == "refused",
            "bob does not organize it")
        #expect(accepted.apply(to: nil, sender: "bob@example.net", own: Self.alice).action == "unchanged")
    }

    /// RFC 5546 §3.2.3: an answer to one occurrence of a series the organizer's copy holds no
    /// exception for is recorded in one made for it, at the series' SEQUENCE; the series keeps
    /// the attendee's answer to the whole. A time that is no occurrence changes nothing.
    @Test func aReplyForOneOccurrenceMakesItsException() throws {
        let series = try Self.parsed(
            Self.meeting(nil, sequence: 2, start: "20270104T090000Z", extra: ["RRULE:FREQ=WEEKLY;COUNT=4"]))
        func reply(_ occurrence: String) throws -> ITipMessage {
            try ITipMessage(
                text: Self.meeting(
                    "REPLY", sequence: 2, stamp: "20270102T090000Z", start: occurrence,
                    attendees: ["ATTENDEE;PARTSTAT=DECLINED:mailto:bob@example.net"],
                    extra: ["RECURRENCE-ID:\(occurrence)"]), declared: nil)
        }
        let outcome = try reply("20270111T090000Z").apply(to: series, sender: "bob@example.net", own: Self.alice)
        #expect(outcome.action == "answer recorded", "\(outcome.reason ?? "")")
        let events = outcome.copy?.components.filter { $0.name == "VEVENT" } ?? []
        #expect(events.count == 2)
        let exception = try #require(events.first { $0["RECURRENCE-ID"] != nil })
        #expect(exception["RECURRENCE-ID"]?.value == "20270111T090000Z")
        #expect(exception["DTSTART"]?.value == "20270111T090000Z" && exception["RRULE"] == nil)
        #expect(exception["SEQUENCE"]?.value == "2")
        #expect(
            exception.properties.first { $0.name == "ATTENDEE" }?[parameter: "PARTSTAT"] == "DECLINED")
        #expect(Self.partstat(outcome.copy, of: "bob@example.net") == "NEEDS-ACTION", "the series' answer changed")
        let none = try reply("20270112T090000Z").apply(to: series, sender: "bob@example.net", own: Self.alice)
        #expect(none.action == "unchanged" && none.copy == nil)
    }

    @Test func theObjectsMethodCountsAndMessagesCalgwDoesNotActOnChangeNothing() throws {
        let message = try ITipMessage(text: Self.meeting("CANCEL"), declared: "request")
        #expect(message.method == .cancel && message.note?.contains("method=REQUEST") == true)
        let fromHeader = try ITipMessage(text: Self.meeting(nil), declared: "REQUEST")
        #expect(fromHeader.method == .request && fromHeader.note == nil)
        #expect(throws: ITipError.self) { try ITipMessage(text: Self.meeting(nil), declared: nil) }
        #expect(throws: ITipError.self) { try ITipMessage(text: "not a calendar", declared: "REQUEST") }
        let counter = try ITipMessage(text: Self.meeting("COUNTER"), declared: nil)
        #expect(counter.apply(to: nil, sender: nil, own: Self.alice).action == "unchanged")
    }

    /// A proposal for one occurrence in a zone: said, and taken by an edit of that occurrence
    /// whose times are instants, so that the command means the same in any zone.
    @Test func aProposalForAnOccurrenceIsTakenByAnEditOfIt() throws {
        let copy = try Self.parsed(Self.meeting(nil, extra: ["RRULE:FREQ=WEEKLY;COUNT=5"]))
        let counter = try ITipMessage(
            text: Self.meeting(
                "COUNTER", start: "20270117T090000Z",
                attendees: ["ATTENDEE;PARTSTAT=TENTATIVE:mailto:bob@example.net"],
                extra: ["RECURRENCE-ID:20270117T090000Z", "COMMENT:Later?"]
            ).replacingOccurrences(of: "DTSTART:20270117T090000Z", with: "DTSTART;TZID=Europe/Berlin:20270117T150000"),
            declared: nil)
        let outcome = counter.apply(to: copy, sender: nil, own: Self.alice)
        guard case .proposed(let said, let taking) = outcome else { return #expect(Bool(false), "\(outcome)") }
        #expect(said.hasPrefix("bob@example.net proposes Sun 2027-01-17 15:00–16:00 Europe/Berlin"), "\(said)")
        #expect(said.contains("for the occurrence 2027-01-17T09:00Z") && said.contains("(\"Later?\")"), "\(said)")
        #expect(
            taking == "calgw event edit m1 --occurrence 2027-01-17T09:00Z --start 2027-01-17T14:00Z --duration PT1H")
        // From bob to a meeting alice does not organize: no proposal of hers to take.
        #expect(counter.apply(to: copy, sender: nil, own: Self.bob).action == "refused")
    }

    /// BYDAY's ordinals in words, as people say them.
    @Test func ordinalsAreSaidAsWords() {
        #expect(InvitationView.words(rule: "FREQ=MONTHLY;BYDAY=-1FR") == "every month on the last Fri")
        #expect(
            InvitationView.words(rule: "FREQ=MONTHLY;BYDAY=2MO,-2TU") == "every month on the 2nd Mon, the 2nd last Tue")
        #expect(InvitationView.ordinal(11) == "11th" && InvitationView.ordinal(23) == "23rd")
    }
}
