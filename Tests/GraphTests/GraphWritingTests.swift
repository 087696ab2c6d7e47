import Foundation
import ICalendar
import Testing

@testable import Graph

/// iCalendar as calgw writes it → the Graph write → the event Graph would hold → iCalendar
/// again gives the same occurrences.
@Suite struct GraphWritingTests {
    /// What Graph would answer for a write: the master with ids, its exceptions and cancelled
    /// occurrences, as the delta and `$expand` give them.
    static func served(_ write: GraphEventWrite) -> GraphEvent {
        var master = write.master
        master.id = "AAMkSERVED="
        master.iCalUId = "040000008200E00074C5B7101A82E008SERVED"
        master.type = master.recurrence == nil ? .singleInstance : .seriesMaster
        master.cancelledOccurrences = write.cancelled.map { "OID.AAMkSERVED=.\($0.date.isoString)" }
        let exceptions = write.overrides.map { o in
            var e = master
            e.recurrence = nil
            e.cancelledOccurrences = nil
            e.type = .exception
            e.originalStart = o.occurrence.originalStart
            let p = o.patch
            e.start = p.start ?? e.start
            e.end = p.end ?? e.end
            e.subject = p.subject ?? e.subject
            e.body = p.body ?? e.body
            e.location = p.location ?? e.location
            return e
        }
        master.exceptionOccurrences = exceptions
        return master
    }

    static func roundTrip(_ text: String) throws -> (Component, Component, GraphEventWrite) {
        let original = try GraphSamples.parse(text)
        let write = try original.graphEventWrite()
        let back = try served(write).iCalendar(at: GraphSamples.now)
        return (original, back, write)
    }

    @Test(arguments: [
        [
            "DTSTART;TZID=Europe/Berlin:20260105T090000", "DTEND;TZID=Europe/Berlin:20260105T100000",
            "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE",
        ],
        [
            "DTSTART;TZID=Europe/Berlin:20260130T170000", "DURATION:PT30M",
            "RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=12",
        ],
        [
            "DTSTART;TZID=America/New_York:20260131T080000", "DTEND;TZID=America/New_York:20260131T083000",
            "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1",
        ],
        [
            "DTSTART;TZID=America/New_York:20260302T073000", "DTEND;TZID=America/New_York:20260302T080000",
            "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20260320T120000Z",
        ],
        [
            "DTSTART;TZID=Europe/Berlin:20260327T100000", "DTEND;TZID=Europe/Berlin:20260327T110000",
            "RRULE:FREQ=YEARLY",
        ],
        [
            "DTSTART;TZID=Europe/Berlin:20260130T160000", "DTEND;TZID=Europe/Berlin:20260130T170000",
            "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        ],
        [
            "DTSTART;TZID=America/New_York:20261101T013000", "DTEND;TZID=America/New_York:20261101T023000",
            "RRULE:FREQ=WEEKLY;UNTIL=20261206T063000Z",
        ],
        ["DTSTART;VALUE=DATE:20261225", "DTEND;VALUE=DATE:20261226", "RRULE:FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25"],
        ["DTSTART:20260105T090000Z", "DTEND:20260105T093000Z", "RRULE:FREQ=DAILY;INTERVAL=4;COUNT=30"],
        ["DTSTART;TZID=Europe/Berlin:20260310T090000", "DTEND;TZID=Europe/Berlin:20260310T093000"],
    ])
    func iCalendarToGraphToICalendarKeepsTheOccurrences(_ lines: [String]) throws {
        let (original, back, _) = try Self.roundTrip(GraphSamples.calendar(lines + ["SUMMARY:Round trip"]))
        let expected = GraphSamples.starts(original)
        #expect(!expected.isEmpty)
        #expect(GraphSamples.starts(back) == expected)
        let a = original.components(named: "VEVENT")[0]
        let b = back.components(named: "VEVENT")[0]
        #expect(b["UID"]?.text == "series-1@calgw")
        #expect(b["DTSTART"]?.tzid == a["DTSTART"]?.tzid)
        #expect(b["SUMMARY"]?.text == "Round trip")
    }

    @Test func untilInTheMiddleOfADayEndsTheDayBeforeWhenItsOccurrenceIsLater() throws {
        let text = GraphSamples.calendar([
            "DTSTART;TZID=Europe/Berlin:20260105T180000", "DTEND;TZID=Europe/Berlin:20260105T190000",
            "RRULE:FREQ=DAILY;UNTIL=20260110T120000Z",
        ])
        let write = try GraphSamples.parse(text).graphEventWrite()
        #expect(write.master.recurrence?.range.type == .endDate)
        #expect(write.master.recurrence?.range.endDate == "2026-01-09")
        #expect(write.master.recurrence?.range.recurrenceTimeZone == "W. Europe Standard Time")
    }

    @Test func overridesAndExdatesBecomePatchesAndDeletions() throws {
        let text = GraphSamples.calendar(
            [
                "DTSTART;TZID=Europe/Berlin:20260105T090000", "DTEND;TZID=Europe/Berlin:20260105T100000",
                "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=8", "EXDATE;TZID=Europe/Berlin:20260119T090000",
                "SUMMARY:Standup", "LOCATION:Room 1",
            ],
            extra: [
                "BEGIN:VEVENT", "UID:series-1@calgw", "DTSTAMP:20250101T000000Z",
                "RECURRENCE-ID;TZID=Europe/Berlin:20260202T090000",
                "DTSTART;TZID=Europe/Berlin:20260203T140000", "DTEND;TZID=Europe/Berlin:20260203T150000",
                "SUMMARY:Standup (Tuesday)", "LOCATION:Room 1", "END:VEVENT",
                "BEGIN:VEVENT", "UID:series-1@calgw", "DTSTAMP:20250101T000000Z",
                "RECURRENCE-ID;TZID=Europe/Berlin:20260209T090000", "STATUS:CANCELLED",
                "DTSTART;TZID=Europe/Berlin:20260209T090000", "DTEND;TZID=Europe/Berlin:20260209T100000",
                "END:VEVENT",
            ])
        let (original, back, write) = try Self.roundTrip(text)
        #expect(write.cancelled.map(\.date.isoString) == ["2026-01-19", "2026-02-09"])
        #expect(write.cancelled.map(\.originalStart) == ["2026-01-19T08:00:00Z", "2026-02-09T08:00:00Z"])
        #expect(write.overrides.count == 1)
        let patch = write.overrides[0].patch
        #expect(write.overrides[0].occurrence.originalStart == "2026-02-02T08:00:00Z")
        #expect(patch.subject == "Standup (Tuesday)")
        #expect(patch.location == nil)  // the same as the master's
        #expect(patch.start == GraphDateTimeZone(dateTime: "2026-02-03T14:00:00", timeZone: "W. Europe Standard Time"))
        #expect(patch.recurrence == nil)
        #expect(GraphSamples.starts(back) == GraphSamples.starts(original))
        let overridden = back.components(named: "VEVENT").filter { $0["RECURRENCE-ID"] != nil }
        #expect(overridden.map { $0["RECURRENCE-ID"]?.value } == ["20260202T090000"])
        #expect(
            back.components(named: "VEVENT")[0].properties(named: "EXDATE").map(\.value)
                == ["20260119T090000", "20260209T090000"])
    }

    @Test func theMasterBodyHoldsEveryWritableFieldSet() throws {
        let text = GraphSamples.calendar([
            "DTSTART;TZID=Asia/Kolkata:20260105T090000", "DTEND;TZID=Asia/Kolkata:20260105T100000",
            "SUMMARY:Review", "DESCRIPTION:Line one\\nLine two", "LOCATION:Room\\, 2", "CATEGORIES:Work,Q1",
            "TRANSP:TRANSPARENT", "CLASS:CONFIDENTIAL", "PRIORITY:9",
            "ORGANIZER;CN=Me:mailto:me@example.com",
            "ATTENDEE;CN=Me;PARTSTAT=ACCEPTED:mailto:me@example.com",
            "ATTENDEE;CN=Ann;ROLE=OPT-PARTICIPANT;PARTSTAT=TENTATIVE:mailto:ann@example.com",
            "ATTENDEE;CUTYPE=ROOM:mailto:room4@example.com",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Review", "TRIGGER:-PT1H", "END:VALARM",
        ])
        let write = try GraphSamples.parse(text).graphEventWrite()
        let m = write.master
        #expect(m.start == GraphDateTimeZone(dateTime: "2026-01-05T09:00:00", timeZone: "India Standard Time"))
        #expect(m.isAllDay == false)
        #expect(m.subject == "Review")
        #expect(m.body == GraphItemBody(contentType: .text, content: "Line one\nLine two"))
        #expect(m.location == GraphLocation(displayName: "Room, 2"))
        #expect(m.categories == ["Work", "Q1"])
        #expect(m.showAs == .free)
        #expect(m.sensitivity == .confidential)
        #expect(m.importance == .low)
        #expect(m.isReminderOn == true)
        #expect(m.reminderMinutesBeforeStart == 60)
        #expect(m.recurrence == nil)
        #expect(m.attendees?.map(\.emailAddress?.address) == ["ann@example.com", "room4@example.com"])
        #expect(m.attendees?.map(\.type) == [.optional, .resource])
        #expect(m.extendedProperty(GraphExtendedProperty.uidID) == "series-1@calgw")
        #expect(write.notHeld.map(\.part) == ["ORGANIZER"])
        let json = try GraphSamples.json(m)
        #expect(!json.contains("iCalUId"))
        #expect(!json.contains("organizer"))
    }

    @Test func anUneditedHTMLBodyGoesBackAsTheSameHTML() throws {
        let event = try GraphSamples.decode(GraphEvent.self, GraphSamples.created)
        let calendar = try event.iCalendar(at: GraphSamples.now)
        let write = try calendar.graphEventWrite()
        #expect(
            write.master.body
                == GraphItemBody(
                    contentType: .html, content: event.body?.content?.replacingOccurrences(of: "\r\n", with: "\n")))
        #expect(write.master.start?.local == event.start?.local)
        #expect(write.master.start?.timeZone == "Pacific Standard Time")
        #expect(write.master.showAs == .busy)

        var edited = calendar
        let i = edited.components.firstIndex { $0.name == "VEVENT" }!
        edited.components[i].set(Property.text("DESCRIPTION", "Noon is fine."))
        let rewrite = try edited.graphEventWrite()
        #expect(rewrite.master.body == GraphItemBody(contentType: .text, content: "Noon is fine."))
        #expect(rewrite.notHeld.contains { $0.part == "X-ALT-DESC" })
    }

    @Test func busyStatusesBeyondFreeAndBusyRoundTrip() throws {
        for status in [GraphShowAs.tentative, .oof, .workingElsewhere, .free, .busy] {
            var event = try GraphSamples.decode(GraphEvent.self, GraphSamples.created)
            event.showAs = status
            let write = try event.iCalendar(at: GraphSamples.now).graphEventWrite()
            #expect(write.master.showAs == status)
        }
    }

    @Test func whatGraphDoesNotHoldIsListedNotRefused() throws {
        let text = GraphSamples.calendar([
            "DTSTART;TZID=Europe/Berlin:20260105T090000", "DTEND;TZID=Europe/Berlin:20260105T100000",
            "X-CALGW-COLOR:teal", "ATTACH:https://example.com/agenda.pdf", "URL:https://example.com/",
            "DESCRIPTION;ALTREP=\"cid:part1\":Agenda", "PRIORITY:3", "STATUS:TENTATIVE",
            "ATTENDEE;ROLE=CHAIR;RSVP=TRUE:mailto:boss@example.com",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:a", "TRIGGER:-PT10M", "END:VALARM",
            "BEGIN:VALARM", "ACTION:EMAIL", "DESCRIPTION:b", "SUMMARY:b", "ATTENDEE:mailto:me@example.com",
            "TRIGGER:-P1D", "END:VALARM",
        ])
        let write = try GraphSamples.parse(text).graphEventWrite()
        let parts = Set(write.notHeld.map(\.part))
        #expect(
            parts == [
                "X-CALGW-COLOR", "ATTACH", "URL", "DESCRIPTION;ALTREP", "PRIORITY:3", "STATUS:TENTATIVE",
                "ATTENDEE;ROLE=CHAIR", "VALARM",
            ])
        #expect(write.master.reminderMinutesBeforeStart == 10)
        #expect(write.master.importance == .high)
        #expect(write.notHeld.allSatisfy { !$0.reason.isEmpty })
    }

    @Test(arguments: [
        (
            "Europe/Amsterdam",
            [
                "Central Europe Standard Time", "Central European Standard Time", "Romance Standard Time",
                "W. Europe Standard Time",
            ]
        ),
        ("America/Detroit", ["Eastern Standard Time", "US Eastern Standard Time"]),
        ("Europe/Kyiv", ["FLE Standard Time"]),
        ("UTC", ["UTC"]),
    ])
    func zonesWithoutTheirOwnWindowsNameTakeOneWithTheSameClock(_ iana: String, _ names: [String]) throws {
        let name = try #require(GraphZones.windowsName(forIANA: iana, year: 2026))
        #expect(names.contains(name))
    }
}
