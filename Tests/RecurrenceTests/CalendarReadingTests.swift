import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// The readings of docs/recurrence.md ("Calendars as other programs write them") where calgw
/// decides beyond what recurring-ical-events shows, each with the case that separates them.
@Suite struct CalendarReadingTests {
    static func calendar(_ body: String, header: String = "") throws -> Component {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + header + body + "END:VCALENDAR\r\n"
        return try #require(try ICalendarParser().parse(text).calendar)
    }

    static func utc(_ text: String) -> Int64 { DateTimeValue(parsing: text)!.local.secondsSinceEpoch }

    static func version(sequence: Int, stamp: String, summary: String, extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:v\r\nSEQUENCE:\(sequence)\r\nDTSTAMP:\(stamp)\r\nDTSTART:20260105T100000Z\r\n"
            + "DTEND:20260105T110000Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\n\(extra)SUMMARY:\(summary)\r\nEND:VEVENT\r\n"
    }

    /// Equal SEQUENCEs: the later DTSTAMP is the newer version (RFC 5546 §2.1.5), wherever it
    /// stands in the file; recurring-ical-events keeps the first.
    @Test func ofEqualSequencesTheLaterStampIsTheEvent() throws {
        let cal = try Self.calendar(
            Self.version(sequence: 1, stamp: "20260101T000000Z", summary: "older")
                + Self.version(
                    sequence: 1, stamp: "20260102T000000Z", summary: "newer", extra: "EXDATE:20260106T100000Z\r\n"))
        let occurrences = CalendarExpansion(calendar: cal).occurrences(
            from: Self.utc("20260101T000000Z"), to: Self.utc("20260201T000000Z"))
        #expect(occurrences.map { $0.component["SUMMARY"]?.text } == ["newer", "newer"])
        #expect(occurrences.map(\.startInstant) == [Self.utc("20260105T100000Z"), Self.utc("20260107T100000Z")])
    }

    /// A span edit works on the version that is expanded, and leaves the older one as written.
    @Test func spanEditsChangeTheNewestVersion() throws {
        let older = Self.version(sequence: 0, stamp: "20260101T000000Z", summary: "older")
        let cal = try Self.calendar(older + Self.version(sequence: 2, stamp: "20260102T000000Z", summary: "newer"))
        let editor = try SeriesEditor(calendar: cal, uid: "v", now: SpanEditTests.now)
        let index = try #require(SeriesExpansion(calendar: cal, uid: "v"))
        let rid = DateTimeValue(parsing: "20260106T100000Z")!
        let edited = try #require(try editor.deleteOccurrence(rid, span: .thisEvent, instances: index).resource)
        let masters = edited.components.filter { $0.name == "VEVENT" }
        #expect(masters.count == 2)
        #expect(masters.first { $0["SUMMARY"]?.text == "older" }?["EXDATE"] == nil)
        #expect(masters.first { $0["SUMMARY"]?.text == "newer" }?["EXDATE"]?.value == "20260106T100000Z")
        let left = CalendarExpansion(calendar: edited).occurrences(
            from: Self.utc("20260101T000000Z"), to: Self.utc("20260201T000000Z"))
        #expect(left.count == 2)
    }

    /// In a calendar naming its zone, a UTC series keeps recurring in UTC (RFC 5545 §3.3.5): after
    /// New York's change to summer time it is still at 15:00Z. recurring-ical-events moves it to
    /// 14:00Z, the zone's 10:00.
    @Test func aUTCSeriesInACalendarWithADeclaredZoneStaysInUTC() throws {
        let cal = try Self.calendar(
            "BEGIN:VEVENT\r\nUID:u\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260302T150000Z\r\nDTEND:20260302T160000Z\r\n"
                + "RRULE:FREQ=WEEKLY;COUNT=2\r\nEND:VEVENT\r\n", header: "X-WR-TIMEZONE:America/New_York\r\n")
        let read = DeclaredCalendarZone.applied(to: cal)
        #expect(read == cal)
        let starts = CalendarExpansion(calendar: read).occurrences(
            from: Self.utc("20260301T000000Z"), to: Self.utc("20260401T000000Z")
        ).map(\.startInstant)
        #expect(starts == [Self.utc("20260302T150000Z"), Self.utc("20260309T150000Z")])
    }

    /// Floating times become times of the declared zone; dates and other zones stay as written.
    @Test func theDeclaredZoneIsGivenToFloatingTimesOnly() throws {
        let cal = try Self.calendar(
            "BEGIN:VEVENT\r\nUID:f\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260302T090000\r\nDTEND;TZID=Europe/Berlin:20260302T160000\r\n"
                + "RDATE;VALUE=DATE:20260310\r\nEXDATE:20260309T090000,20260316T090000\r\nEND:VEVENT\r\n",
            header: "X-WR-TIMEZONE:America/New_York\r\n")
        let event = DeclaredCalendarZone.applied(to: cal).components[0]
        #expect(event["DTSTART"]?.dateTime?.form == .zoned(tzid: "America/New_York"))
        #expect(event["DTEND"]?.tzid == "Europe/Berlin")
        #expect(event["RDATE"]?.tzid == nil)
        #expect(
            event["EXDATE"]?.dateTimes.map(\.form) == [
                .zoned(tzid: "America/New_York"), .zoned(tzid: "America/New_York"),
            ])
        #expect(
            DeclaredCalendarZone.applied(to: try Self.calendar("", header: "X-WR-TIMEZONE:Mars/Olympus\r\n"))[
                "X-WR-TIMEZONE"] != nil)
    }

    /// DTEND before DTSTART: the occurrence runs from the earlier time to the later, and the
    /// instance keeps DTSTART's time as its RECURRENCE-ID, so an EXDATE or override written
    /// against DTSTART still finds it (recurring-ical-events keys the instances by DTEND's time).
    @Test func anEndBeforeTheStartIsSwappedAndTheInstanceKeepsItsName() throws {
        let cal = try Self.calendar(
            "BEGIN:VEVENT\r\nUID:s\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T110000Z\r\nDTEND:20260105T100000Z\r\n"
                + "RRULE:FREQ=DAILY;COUNT=3\r\nEXDATE:20260106T110000Z\r\nEND:VEVENT\r\n")
        let occurrences = CalendarExpansion(calendar: cal).occurrences(
            from: Self.utc("20260101T000000Z"), to: Self.utc("20260201T000000Z"))
        #expect(occurrences.map(\.startInstant) == [Self.utc("20260105T100000Z"), Self.utc("20260107T100000Z")])
        #expect(occurrences.map(\.endInstant) == [Self.utc("20260105T110000Z"), Self.utc("20260107T110000Z")])
        #expect(occurrences.map { $0.recurrenceID?.description } == ["20260105T110000Z", "20260107T110000Z"])
        // A window that holds only the swapped start still finds the occurrence.
        let early = CalendarExpansion(calendar: cal).occurrences(
            from: Self.utc("20260107T100000Z"), to: Self.utc("20260107T103000Z"))
        #expect(early.count == 1)
    }
}
