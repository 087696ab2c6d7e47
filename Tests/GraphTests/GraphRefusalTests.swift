import Foundation
import ICalendar
import Testing

@testable import Graph

/// What Graph cannot hold is refused, naming the part and why (docs/graph-mapping.md).
@Suite struct GraphRefusalTests {
    static let berlin = "DTSTART;TZID=Europe/Berlin:20260105T090000"

    @Test(arguments: [
        ("RRULE:FREQ=HOURLY;INTERVAL=2", "FREQ=HOURLY"),
        ("RRULE:FREQ=MINUTELY", "FREQ=MINUTELY"),
        ("RRULE:FREQ=SECONDLY", "FREQ=SECONDLY"),
        ("RRULE:FREQ=DAILY;BYHOUR=9,17", "BYHOUR=9,17"),
        ("RRULE:FREQ=YEARLY;BYWEEKNO=2;BYDAY=MO", "BYWEEKNO=2"),
        ("RRULE:FREQ=YEARLY;BYYEARDAY=5", "BYYEARDAY=5"),
        ("RRULE:FREQ=MONTHLY;BYMONTHDAY=5,20", "BYMONTHDAY=5,20"),
        ("RRULE:FREQ=MONTHLY;BYMONTHDAY=-2", "BYMONTHDAY=-2"),
        ("RRULE:FREQ=MONTHLY;BYMONTHDAY=31", "BYMONTHDAY=31"),
        ("RRULE:FREQ=MONTHLY;BYDAY=1MO,3MO", "BYDAY=1MO,3MO"),
        ("RRULE:FREQ=MONTHLY;BYDAY=5MO", "BYDAY=5MO"),
        ("RRULE:FREQ=MONTHLY;BYDAY=-2MO", "BYDAY=-2MO"),
        ("RRULE:FREQ=MONTHLY;BYDAY=MO", "BYDAY=MO"),
        ("RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=2,3", "BYSETPOS=2,3"),
        ("RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=5", "BYSETPOS=5"),
        ("RRULE:FREQ=YEARLY;BYMONTH=1,7;BYDAY=1MO", "BYMONTH=1,7"),
        ("RRULE:FREQ=YEARLY;BYDAY=1MO", "FREQ=YEARLY without BYMONTH"),
        ("RRULE:FREQ=WEEKLY;BYMONTH=6", "BYMONTH=6"),
        ("RRULE:FREQ=DAILY;BYMONTH=6", "BYMONTH=6"),
        ("RRULE:FREQ=DAILY;INTERVAL=2;BYDAY=MO,WE", "INTERVAL=2"),
        ("RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=5", "DTSTART"),
        ("RRULE:FREQ=WEEKLY;BYDAY=TU", "DTSTART"),
        ("RRULE:FREQ=WEEKLY;RSCALE=HEBREW", "RSCALE=HEBREW"),
    ])
    func rulesOutsideGraphsPatternsAreRefused(_ rule: String, _ part: String) throws {
        let text = GraphSamples.calendar([Self.berlin, rule])
        let error = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(text).graphEventWrite() }
        #expect(error.code == .unsupportedRecurrence(part: part))
        #expect(error.message.hasPrefix("Graph cannot hold \(part): "))
    }

    @Test func yearlyOnFebruary29thIsRefusedUnlessWrittenAsTheLastOf28And29() throws {
        let plain = GraphSamples.calendar(
            ["DTSTART;TZID=Europe/Berlin:20280229T090000", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"])
        let error = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(plain).graphEventWrite() }
        #expect(error.part == "BYMONTH=2;BYMONTHDAY=29")
        let lastOf = GraphSamples.calendar(
            ["DTSTART;TZID=Europe/Berlin:20280229T090000", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"])
        let write = try GraphSamples.parse(lastOf).graphEventWrite()
        #expect(write.master.recurrence?.pattern.dayOfMonth == 29)
    }

    @Test(arguments: [
        (["RDATE;TZID=Europe/Berlin:20260107T090000", "RRULE:FREQ=WEEKLY"], "RDATE"),
        (["EXRULE:FREQ=MONTHLY", "RRULE:FREQ=WEEKLY"], "EXRULE"),
        (["RRULE:FREQ=WEEKLY", "RRULE:FREQ=DAILY"], "RRULE"),
    ])
    func otherRecurrencePropertiesAreRefused(_ lines: [String], _ part: String) throws {
        let text = GraphSamples.calendar([Self.berlin] + lines)
        let error = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(text).graphEventWrite() }
        #expect(error.code == .unsupportedRecurrence(part: part))
    }

    @Test func floatingTimesAreRefusedUnlessAZoneIsGiven() throws {
        let text = GraphSamples.calendar(["DTSTART:20260105T090000", "DTEND:20260105T100000"])
        let error = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(text).graphEventWrite() }
        #expect(error.code == .unsupportedTimeZone(part: "DTSTART:20260105T090000"))
        let write = try GraphSamples.parse(text).graphEventWrite(floatingTimeZone: "America/New_York")
        #expect(
            write.master.start == GraphDateTimeZone(dateTime: "2026-01-05T09:00:00", timeZone: "Eastern Standard Time"))
    }

    @Test func customZonesAreRefused() throws {
        let text = GraphSamples.calendar(
            ["DTSTART;TZID=My Office:20260105T090000"],
            extra: [
                "BEGIN:VTIMEZONE", "TZID:My Office", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                "TZOFFSETFROM:+0130", "TZOFFSETTO:+0130", "END:STANDARD", "END:VTIMEZONE",
            ])
        let error = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(text).graphEventWrite() }
        #expect(error.code == .unsupportedTimeZone(part: "DTSTART;TZID=My Office:20260105T090000"))
    }

    @Test func structuresGraphCannotHoldAreRefused() throws {
        let todo = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:t\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        #expect(throws: GraphMappingError.self) { try GraphSamples.parse(todo).graphEventWrite() }

        let orphan = GraphSamples.calendar(["RECURRENCE-ID;TZID=Europe/Berlin:20260105T090000", Self.berlin])
        let e1 = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(orphan).graphEventWrite() }
        #expect(e1.part == "RECURRENCE-ID")

        let series = [Self.berlin, "DTEND;TZID=Europe/Berlin:20260105T100000", "RRULE:FREQ=WEEKLY;BYDAY=MO"]
        func override(_ lines: [String]) -> [String] {
            ["BEGIN:VEVENT", "UID:series-1@calgw", "DTSTAMP:20250101T000000Z"] + lines + ["END:VEVENT"]
        }
        let future = GraphSamples.calendar(
            series,
            extra: override([
                "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20260112T090000",
                "DTSTART;TZID=Europe/Berlin:20260112T100000",
            ]))
        let e2 = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(future).graphEventWrite() }
        #expect(e2.part == "RECURRENCE-ID;RANGE=THISANDFUTURE")

        let noOccurrence = GraphSamples.calendar(
            series,
            extra: override([
                "RECURRENCE-ID;TZID=Europe/Berlin:20260113T090000", "DTSTART;TZID=Europe/Berlin:20260113T100000",
            ]))
        let e3 = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(noOccurrence).graphEventWrite() }
        #expect(e3.message.contains("no occurrence of the series falls on 2026-01-13"))

        let crossing = GraphSamples.calendar(
            series,
            extra: override([
                "RECURRENCE-ID;TZID=Europe/Berlin:20260112T090000", "DTSTART;TZID=Europe/Berlin:20260119T100000",
            ]))
        let e4 = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(crossing).graphEventWrite() }
        #expect(e4.message.contains("onto or past the next one (2026-01-19)"))

        let twoUIDs = GraphSamples.calendar(
            [Self.berlin], extra: ["BEGIN:VEVENT", "UID:other", "DTSTAMP:20250101T000000Z", Self.berlin, "END:VEVENT"])
        let e5 = try #require(throws: GraphMappingError.self) { try GraphSamples.parse(twoUIDs).graphEventWrite() }
        #expect(e5.part == "UID other")
    }
}
