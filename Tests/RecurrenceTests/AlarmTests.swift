import Foundation
import Testing
import CalgwTestSupport
import ICalendar
@testable import Recurrence

/// Hand-written cases for each rule of alarm computation (`Sources/Recurrence/Alarms`).
@Suite struct AlarmTests {
    static func calendar(_ body: String) throws -> [Component] {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\n\(body)END:VCALENDAR\r\n"
        return try ICalendarParser().parse(text).components
    }

    /// A component of `name` with `lines` (one property or BEGIN/END a line).
    static func component(_ lines: String, name: String = "VEVENT") -> String {
        "BEGIN:\(name)\r\nDTSTAMP:20260101T000000Z\r\n" + lines.split(separator: "\n").map { $0 + "\r\n" }.joined()
            + "END:\(name)\r\n"
    }

    static func alarm(_ lines: String) -> String { "BEGIN:VALARM\n" + lines + "\nEND:VALARM" }

    static func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> Int64 {
        LocalDateTime(year: y, month: m, day: d, hour: h, minute: mi).secondsSinceEpoch
    }

    /// `uid trigger action description` per alarm instant, the trigger in UTC.
    static func alarms(
        _ body: String, from: Int64 = utc(2026, 1, 1), to: Int64 = utc(2027, 1, 1),
        zone: any ZoneRules = FixedOffsetZone.utc, includeAcknowledged: Bool = false
    ) throws -> [String] {
        let calendar = CalendarAlarms(components: try calendar(body))
        return calendar.alarms(from: from, to: to, floatingZone: zone, includeAcknowledged: includeAcknowledged).map {
            let trigger = LocalDateTime(secondsSinceEpoch: $0.trigger).isoString
            return "\($0.uid) \(trigger)Z \($0.view.action ?? "-") \($0.view.description ?? "-")"
        }
    }

    @Test func triggersCountFromTheStartOrTheEndAndRepeat() throws {
        let got = try Self.alarms(
            Self.component(
                """
                UID:a
                DTSTART:20260310T100000Z
                DTEND:20260310T110000Z
                \(Self.alarm("ACTION:DISPLAY\nDESCRIPTION:soon\nTRIGGER:-PT15M\nREPEAT:2\nDURATION:PT5M"))
                \(Self.alarm("ACTION:AUDIO\nTRIGGER;RELATED=END:PT0S"))
                """))
        #expect(
            got == [
                "a 2026-03-10T09:45:00Z DISPLAY soon", "a 2026-03-10T09:50:00Z DISPLAY soon",
                "a 2026-03-10T09:55:00Z DISPLAY soon", "a 2026-03-10T11:00:00Z AUDIO -",
            ])
    }

    /// The window is about triggers, not occurrences: an alarm two days before an event
    /// outside the window is in it, and one after an event inside it may not be.
    @Test func anAlarmIsFoundByItsTriggerNotByItsEvent() throws {
        let body = Self.component(
            """
            UID:a
            DTSTART:20260310T100000Z
            DURATION:PT1H
            \(Self.alarm("ACTION:DISPLAY\nTRIGGER:-P2D"))
            \(Self.alarm("ACTION:AUDIO\nTRIGGER;RELATED=END:P1D"))
            """)
        #expect(
            try Self.alarms(body, from: Self.utc(2026, 3, 8), to: Self.utc(2026, 3, 9)) == [
                "a 2026-03-08T10:00:00Z DISPLAY -"
            ])
        #expect(try Self.alarms(body, from: Self.utc(2026, 3, 10), to: Self.utc(2026, 3, 11)).isEmpty)
        #expect(
            try Self.alarms(body, from: Self.utc(2026, 3, 11), to: Self.utc(2026, 3, 12)) == [
                "a 2026-03-11T11:00:00Z AUDIO -"
            ])
    }

    /// Each occurrence has the alarms of the component describing it: an override's replace
    /// the master's (none when it has none), EXDATEs remove theirs, a cancelled override has none.
    @Test func overridesReplaceTheMastersAlarmsAndExdatesRemoveTheirs() throws {
        let got = try Self.alarms(
            Self.component(
                """
                UID:s
                DTSTART:20260301T090000Z
                DURATION:PT30M
                RRULE:FREQ=DAILY;COUNT=5
                EXDATE:20260303T090000Z
                \(Self.alarm("ACTION:DISPLAY\nDESCRIPTION:master\nTRIGGER:-PT10M"))
                """)
                + Self.component(
                    """
                    UID:s
                    RECURRENCE-ID:20260302T090000Z
                    DTSTART:20260302T120000Z
                    DURATION:PT30M
                    \(Self.alarm("ACTION:AUDIO\nDESCRIPTION:moved\nTRIGGER:-PT1H"))
                    """)
                + Self.component("UID:s\nRECURRENCE-ID:20260304T090000Z\nDTSTART:20260304T090000Z\nDURATION:PT30M")
                + Self.component(
                    """
                    UID:s
                    RECURRENCE-ID:20260305T090000Z
                    DTSTART:20260305T090000Z
                    DURATION:PT30M
                    STATUS:CANCELLED
                    \(Self.alarm("ACTION:DISPLAY\nDESCRIPTION:cancelled\nTRIGGER:-PT10M"))
                    """))
        #expect(got == ["s 2026-03-01T08:50:00Z DISPLAY master", "s 2026-03-02T11:00:00Z AUDIO moved"])
    }

    /// An absolute trigger goes off once, whatever the series, and belongs to the component it
    /// is written in (the master: its first occurrence); written alike in the master and an
    /// override it counts once.
    @Test func anAbsoluteTriggerGoesOffOnceOnASeries() throws {
        let absolute = Self.alarm("ACTION:DISPLAY\nTRIGGER;VALUE=DATE-TIME:20260302T120000Z\nREPEAT:1\nDURATION:PT1H")
        let components = try Self.calendar(
            Self.component("UID:s\nDTSTART:20260301T090000Z\nRRULE:FREQ=DAILY;COUNT=5\n\(absolute)")
                + Self.component("UID:s\nRECURRENCE-ID:20260304T090000Z\nDTSTART:20260304T100000Z\n\(absolute)"))
        let got = CalendarAlarms(components: components).alarms(from: Self.utc(2026, 1, 1), to: Self.utc(2027, 1, 1))
        #expect(got.map(\.trigger) == [Self.utc(2026, 3, 2, 12), Self.utc(2026, 3, 2, 13)])
        #expect(got.map(\.anchor) == [.absolute, .absolute])
        #expect(got.map { $0.occurrence?.startInstant } == [Self.utc(2026, 3, 1, 9), Self.utc(2026, 3, 1, 9)])
        #expect(got.map(\.repetition) == [0, 1])
    }

    /// RFC 9074: an alarm acknowledged at or after a trigger is not due at that trigger again;
    /// its later repetitions are, and so is a snooze alarm (an absolute one of its own).
    @Test func acknowledgedTriggersAreLeftOut() throws {
        let repeated = Self.alarm(
            "ACTION:DISPLAY\nDESCRIPTION:r\nTRIGGER:-PT15M\nREPEAT:2\nDURATION:PT5M\nACKNOWLEDGED:20260310T095000Z")
        let snooze = Self.alarm(
            "ACTION:DISPLAY\nDESCRIPTION:snooze\nTRIGGER;VALUE=DATE-TIME:20260310T095800Z\nRELATED-TO;RELTYPE=SNOOZE:x")
        let body = Self.component("UID:a\nDTSTART:20260310T100000Z\nDURATION:PT1H\n\(repeated)\n\(snooze)")
        #expect(try Self.alarms(body) == ["a 2026-03-10T09:55:00Z DISPLAY r", "a 2026-03-10T09:58:00Z DISPLAY snooze"])
        let all = try Self.alarms(body, includeAcknowledged: true)
        #expect(all.count == 4)
        let rfc = try ICalendarParser().parse(
            Data(contentsOf: TestPaths.corpora.appendingPathComponent("icalendar/events/rfc_9074_example_2.ics")))
        let example = CalendarAlarms(components: rfc.components).alarms(
            from: Self.utc(2021, 1, 1), to: Self.utc(2022, 1, 1))
        #expect(
            example.map(\.trigger) == [
                LocalDateTime(year: 2021, month: 3, day: 2, hour: 15, minute: 20).secondsSinceEpoch
            ])
    }

    /// Thunderbird acknowledges all of an event's alarms with X-MOZ-LASTACK on the event, and
    /// puts them off with X-MOZ-SNOOZE-TIME: a trigger at or before the last acknowledgement is
    /// not due again, unless the alarms were snoozed after it (python's icalendar reads them so).
    @Test func thunderbirdsAcknowledgementAndSnoozeAreRead() throws {
        let alarms =
            Self.alarm("ACTION:DISPLAY\nDESCRIPTION:early\nTRIGGER:-PT45M") + "\n"
            + Self.alarm("ACTION:DISPLAY\nDESCRIPTION:late\nTRIGGER:-PT15M")
        let in2024 = { (body: String) in try Self.alarms(body, from: Self.utc(2024, 1, 1), to: Self.utc(2025, 1, 1)) }
        let event = { (extra: String) in
            Self.component("UID:t\nDTSTART:20241023T140000Z\nDURATION:PT1H\n\(extra)\(alarms)")
        }
        // Dismissed at 13:52: both triggers (13:15, 13:45) were before it.
        #expect(try in2024(event("X-MOZ-LASTACK:20241023T135202Z\n")).isEmpty)
        // Dismissed at 13:30: the 13:45 one is still due.
        #expect(try in2024(event("X-MOZ-LASTACK:20241023T133000Z\n")) == ["t 2024-10-23T13:45:00Z DISPLAY late"])
        // Dismissed at 13:52, then snoozed until 13:57: due again.
        #expect(
            try in2024(event("X-MOZ-LASTACK:20241023T135202Z\nX-MOZ-SNOOZE-TIME:20241023T135702Z\n")).count == 2)
        // An RFC 9074 ACKNOWLEDGED later than X-MOZ-LASTACK is the one that counts.
        let own = Self.component(
            "UID:t\nDTSTART:20241023T140000Z\nDURATION:PT1H\nX-MOZ-LASTACK:20241023T131600Z\n"
                + Self.alarm("ACTION:DISPLAY\nDESCRIPTION:late\nTRIGGER:-PT15M\nACKNOWLEDGED:20241023T134500Z"))
        #expect(try in2024(own).isEmpty)
    }

    /// Days keep the wall clock (the same time the day before, across a change to summer
    /// time); hours and minutes are elapsed time (RFC 5545 §3.3.6).
    @Test func daysKeepTheWallClockAndMinutesAreElapsedAcrossDaylightSaving() throws {
        let got = try Self.alarms(
            Self.component(
                """
                UID:gap
                DTSTART;TZID=America/New_York:20260308T031000
                DURATION:PT1H
                \(Self.alarm("ACTION:DISPLAY\nTRIGGER:-PT15M"))
                """)
                + Self.component(
                    """
                    UID:day
                    DTSTART;TZID=America/New_York:20260308T090000
                    DURATION:PT1H
                    \(Self.alarm("ACTION:DISPLAY\nTRIGGER:-P1D"))
                    """))
        // 03:10 EDT is 07:10Z; a quarter of an hour before is 06:55Z (01:55 EST). 09:00 EDT
        // the day before is 09:00 EST, 14:00Z, 23 hours before.
        #expect(got == ["day 2026-03-07T14:00:00Z DISPLAY -", "gap 2026-03-08T06:55:00Z DISPLAY -"])
    }

    /// A whole-day event's alarms count from its midnight in the reader's zone, and give
    /// floating times.
    @Test func wholeDayEventsCountFromMidnightInTheReadersZone() throws {
        let components = try Self.calendar(
            Self.component("UID:d\nDTSTART;VALUE=DATE:20260310\n\(Self.alarm("ACTION:DISPLAY\nTRIGGER:-PT15M"))"))
        let berlin = try #require(SystemZone(identifier: "Europe/Berlin"))
        let got = CalendarAlarms(components: components).alarms(
            from: Self.utc(2026, 3, 1), to: Self.utc(2026, 4, 1), floatingZone: berlin)
        #expect(got.map(\.trigger) == [Self.utc(2026, 3, 9, 22, 45)])
        #expect(got.first?.triggerValue.description == "20260309T234500")
    }

    /// A to-do counts from DTSTART and DUE; one with only a DUE from its DUE, both ways. A
    /// completed to-do reminds of nothing.
    @Test func todosCountFromTheirStartOrDue() throws {
        let got = try Self.alarms(
            Self.component(
                """
                UID:t1
                DTSTART:20260310T080000Z
                DUE:20260310T170000Z
                \(Self.alarm("ACTION:DISPLAY\nDESCRIPTION:start\nTRIGGER:PT0S"))
                \(Self.alarm("ACTION:DISPLAY\nDESCRIPTION:due\nTRIGGER;RELATED=END:-PT1H"))
                """, name: "VTODO")
                + Self.component(
                    """
                    UID:t2
                    DUE:20260311T120000Z
                    \(Self.alarm("ACTION:DISPLAY\nDESCRIPTION:s\nTRIGGER:-PT30M"))
                    \(Self.alarm("ACTION:DISPLAY\nDESCRIPTION:e\nTRIGGER;RELATED=END:-PT10M"))
                    """, name: "VTODO")
                + Self.component(
                    """
                    UID:t3
                    DUE:20260312T120000Z
                    STATUS:COMPLETED
                    \(Self.alarm("ACTION:DISPLAY\nTRIGGER:-PT30M"))
                    """, name: "VTODO"))
        #expect(
            got == [
                "t1 2026-03-10T08:00:00Z DISPLAY start", "t1 2026-03-10T16:00:00Z DISPLAY due",
                "t2 2026-03-11T11:30:00Z DISPLAY s", "t2 2026-03-11T11:50:00Z DISPLAY e",
            ])
    }

    /// Two VALARMs written alike go off once; a VALARM without a readable TRIGGER never.
    @Test func identicalAlarmsGoOffOnceAndUnreadableOnesNever() throws {
        let same = Self.alarm("ACTION:DISPLAY\nTRIGGER:-PT5M")
        let got = try Self.alarms(
            Self.component(
                "UID:a\nDTSTART:20260310T100000Z\n\(same)\n\(same)\n\(Self.alarm("ACTION:DISPLAY\nTRIGGER:soon"))"))
        #expect(got == ["a 2026-03-10T09:55:00Z DISPLAY -"])
    }

    /// What the VALARM view reads, and that reading it leaves the component as written.
    @Test func theAlarmViewReadsRepeatTriggerFormsAndAcknowledged() throws {
        let text = Self.alarm(
            "ACTION:display\nTRIGGER;RELATED=end:PT5M\nREPEAT:3\nX-CUSTOM;P=1:kept\n"
                + "ACKNOWLEDGED:20260101T000000Z\nUID:u"
        )
        let parsed = try ICalendarParser().parse(text.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
        let component = try #require(parsed.components.first)
        let view = Alarm(component)
        #expect(view.action == "DISPLAY")
        #expect(view.trigger == .relative(ICalDuration(minutes: 5), fromEnd: true))
        #expect(view.repeatCount == 0, "REPEAT without DURATION repeats nothing")
        #expect(view.acknowledged?.description == "20260101T000000Z")
        #expect(view.uid == "u")
        #expect(component["X-CUSTOM"]?.value == "kept")
        let bare = Alarm(Component(name: "VALARM", properties: [Property(name: "TRIGGER", value: "20260309T080000Z")]))
        #expect(bare.trigger == .absolute(try #require(DateTimeValue(parsing: "20260309T080000Z"))))
    }
}
