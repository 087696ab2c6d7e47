import Foundation
import ICalendar
import Testing

@testable import CalendarSync

/// When an item takes place, as a windowed pair and the listing index read it: from its first
/// start to its last end, in local time read as UTC, the expected bounds worked out here with
/// Foundation's calendar in UTC.
@Suite struct TimeSpanTests {
    /// The seconds since 1970 of a wall-clock time read as UTC.
    private static func seconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
        return Int64(date.timeIntervalSince1970)
    }

    private static func span(_ lines: String, zone: Bool = true) -> TimeSpan {
        let berlin =
            "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
            + "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n" + (zone ? berlin : "")
            + "BEGIN:VEVENT\r\nUID:span@example.com\r\nDTSTAMP:20260101T000000Z\r\n" + lines
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        return ItemContent(Data(text.utf8)).span
    }

    @Test func aTimedEventInAZoneSpansItsLocalTimes() {
        let span = Self.span(
            "DTSTART;TZID=Europe/Berlin:20260301T090000\r\nDTEND;TZID=Europe/Berlin:20260301T103000\r\n")
        #expect(span == TimeSpan(start: Self.seconds(2026, 3, 1, 9), end: Self.seconds(2026, 3, 1, 10, 30)))
    }

    @Test func anAllDayEventSpansItsDayAndADurationAddsToItsStart() {
        #expect(
            Self.span("DTSTART;VALUE=DATE:20260301\r\n", zone: false)
                == TimeSpan(start: Self.seconds(2026, 3, 1), end: Self.seconds(2026, 3, 2)))
        #expect(
            Self.span("DTSTART:20260301T090000Z\r\nDURATION:PT45M\r\n", zone: false)
                == TimeSpan(start: Self.seconds(2026, 3, 1, 9), end: Self.seconds(2026, 3, 1, 9, 45)))
    }

    /// A series ends with its UNTIL, in UTC or in the start's zone alike; without one it has
    /// no end, and the item no bounds.
    @Test func aSeriesEndsAtItsUntilOrNever() {
        let zoned = "DTSTART;TZID=Europe/Berlin:20260301T090000\r\nDTEND;TZID=Europe/Berlin:20260301T100000\r\n"
        #expect(
            Self.span(zoned + "RRULE:FREQ=WEEKLY;UNTIL=20260426T080000Z\r\n")
                == TimeSpan(start: Self.seconds(2026, 3, 1, 9), end: Self.seconds(2026, 4, 26, 9)))
        #expect(
            Self.span(zoned + "RRULE:FREQ=WEEKLY;UNTIL=20260426T090000\r\n")
                == TimeSpan(start: Self.seconds(2026, 3, 1, 9), end: Self.seconds(2026, 4, 26, 10)))
        #expect(
            Self.span(zoned + "RRULE:FREQ=WEEKLY;COUNT=8\r\n") == .unbounded)
    }

    /// A start that does not read as a date leaves the span to DUE, and extra dates extend it.
    @Test func aStartThatDoesNotReadGivesWayToDueAndExtraDatesExtendTheSpan() {
        #expect(
            Self.span("DTSTART:soon\r\nDUE:20260310T170000Z\r\n", zone: false)
                == TimeSpan(start: Self.seconds(2026, 3, 10, 17), end: Self.seconds(2026, 3, 10, 17)))
        #expect(
            Self.span(
                "DTSTART:20260301T090000Z\r\nDTEND:20260301T100000Z\r\nRDATE:20260305T090000Z,20260320T090000Z\r\n",
                zone: false)
                == TimeSpan(start: Self.seconds(2026, 3, 1, 9), end: Self.seconds(2026, 3, 20, 10)))
    }
}
