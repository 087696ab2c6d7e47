import Foundation
import Testing
import CalgwTestSupport
import ICalendar
@testable import Recurrence

/// Hand-written cases for each rule of series expansion.
@Suite struct SeriesTests {
    static func calendar(_ events: String, extra: String = "") throws -> Component {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\n\(extra)\(events)END:VCALENDAR\r\n"
        return try #require(try ICalendarParser().parse(text).calendar)
    }

    static func event(_ lines: String) -> String {
        "BEGIN:VEVENT\r\nDTSTAMP:20260101T000000Z\r\n" + lines.split(separator: "\n").map { $0 + "\r\n" }.joined()
            + "END:VEVENT\r\n"
    }

    static func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> Int64 {
        LocalDateTime(year: y, month: m, day: d, hour: h, minute: mi).secondsSinceEpoch
    }

    /// Starts and ends as UTC text, for compact expectations.
    static func spans(_ c: Component, from: Int64, to: Int64, zone: any ZoneRules = FixedOffsetZone.utc) -> [String] {
        let e = CalendarExpansion(calendar: c)
        return e.occurrences(from: from, to: to, floatingZone: zone).map {
            OccurrenceTime.utcText($0.start, instant: $0.startInstant, resolver: e.resolver) + "/"
                + OccurrenceTime.utcText($0.end, instant: $0.endInstant, resolver: e.resolver)
        }
    }

    @Test func aTimeInTheSpringGapMovesForwardByTheGap() throws {
        // Europe/Berlin skips 02:00–03:00 on 2026-03-29; America/New_York on 2026-03-08.
        let c = try Self.calendar(
            Self.event("UID:a\nDTSTART;TZID=Europe/Berlin:20260328T023000\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=3")
                + Self.event(
                    "UID:b\nDTSTART;TZID=America/New_York:20260307T023000\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=3"))
        let got = Self.spans(c, from: Self.utc(2026, 3, 1), to: Self.utc(2026, 4, 1))
        #expect(got.contains("2026-03-29T01:30:00Z/2026-03-29T02:30:00Z"), "Berlin 02:30 in the gap is 03:30 CEST")
        #expect(got.contains("2026-03-08T07:30:00Z/2026-03-08T08:30:00Z"), "New York 02:30 in the gap is 03:30 EDT")
        #expect(got.contains("2026-03-28T01:30:00Z/2026-03-28T02:30:00Z"))
    }

    @Test func anAmbiguousTimeInTheAutumnOverlapTakesTheFirstInstant() throws {
        let c = try Self.calendar(
            Self.event("UID:a\nDTSTART;TZID=Europe/Berlin:20261024T023000\nDURATION:PT30M\nRRULE:FREQ=DAILY;COUNT=2")
                + Self.event(
                    "UID:b\nDTSTART;TZID=America/New_York:20261031T013000\nDURATION:PT30M\nRRULE:FREQ=DAILY;COUNT=2"))
        let got = Self.spans(c, from: Self.utc(2026, 10, 1), to: Self.utc(2026, 12, 1))
        #expect(
            got.contains("2026-10-25T00:30:00Z/2026-10-25T01:00:00Z"), "Berlin 02:30 on 25 Oct is first read as CEST")
        #expect(
            got.contains("2026-11-01T05:30:00Z/2026-11-01T06:00:00Z"), "New York 01:30 on 1 Nov is first read as EDT")
    }

    @Test func nominalDurationsKeepWallClockLengthAndExactOnesElapsedTime() throws {
        let c = try Self.calendar(
            Self.event("UID:nominal\nDTSTART;TZID=Europe/Berlin:20260328T120000\nDURATION:P1D")
                + Self.event("UID:exact\nDTSTART;TZID=Europe/Berlin:20260328T120000\nDURATION:PT24H")
                + Self.event(
                    "UID:dtend\nDTSTART;TZID=Europe/Berlin:20260328T120000\nDTEND;TZID=Europe/Berlin:20260329T120000"))
        let got = Self.spans(c, from: Self.utc(2026, 3, 1), to: Self.utc(2026, 4, 1))
        #expect(
            got.filter { $0 == "2026-03-28T11:00:00Z/2026-03-29T10:00:00Z" }.count == 2,
            "P1D and DTEND end at 12:00 CEST: \(got)")
        #expect(got.contains("2026-03-28T11:00:00Z/2026-03-29T11:00:00Z"), "PT24H ends 24 h later, at 13:00 CEST")
    }

    @Test func february29thYearlyOnlyInLeapYears() throws {
        let c = try Self.calendar(Self.event("UID:a\nDTSTART;VALUE=DATE:20240229\nRRULE:FREQ=YEARLY"))
        let got = Self.spans(c, from: Self.utc(2024, 1, 1), to: Self.utc(2033, 1, 1))
        #expect(got == ["2024-02-29/2024-03-01", "2028-02-29/2028-03-01", "2032-02-29/2032-03-01"])
    }

    @Test func lastWorkdayOfTheMonthWithBysetposMinusOne() throws {
        let c = try Self.calendar(
            Self.event("UID:a\nDTSTART:20260130T170000\nRRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4"))
        let got = Self.spans(c, from: Self.utc(2026, 1, 1), to: Self.utc(2027, 1, 1)).map { String($0.prefix(10)) }
        #expect(got == ["2026-01-30", "2026-02-27", "2026-03-31", "2026-04-30"])
    }

    @Test func weekNumber53OnlyInLongYears() throws {
        let c = try Self.calendar(Self.event("UID:a\nDTSTART:20200101T090000\nRRULE:FREQ=YEARLY;BYWEEKNO=53;BYDAY=TH"))
        let got = Self.spans(c, from: Self.utc(2020, 1, 2), to: Self.utc(2033, 1, 1)).map { String($0.prefix(10)) }
        // 2020 and 2026 have an ISO week 53; 2032 too.
        #expect(got == ["2020-12-31", "2026-12-31", "2032-12-30"])
    }

    static let weekly = event(
        "UID:w\nDTSTART;TZID=Europe/Berlin:20260105T100000\nDTEND;TZID=Europe/Berlin:20260105T110000\nRRULE:FREQ=WEEKLY;BYDAY=MO\nEXDATE:20260112T090000Z"
    )

    @Test func exdatesMatchByInstantAndMovedOverridesLeaveTheirSlot() throws {
        let moved = Self.event(
            "UID:w\nRECURRENCE-ID;TZID=Europe/Berlin:20260119T100000\nDTSTART;TZID=Europe/Berlin:20260210T150000\nDTEND;TZID=Europe/Berlin:20260210T160000\nSUMMARY:moved out"
        )
        let movedIn = Self.event(
            "UID:w\nRECURRENCE-ID:20260302T090000Z\nDTSTART;TZID=Europe/Berlin:20260121T080000\nDTEND;TZID=Europe/Berlin:20260121T090000\nSUMMARY:moved in"
        )
        let c = try Self.calendar(Self.weekly + moved + movedIn)
        let january = Self.spans(c, from: Self.utc(2026, 1, 1), to: Self.utc(2026, 2, 1)).map { String($0.prefix(13)) }
        #expect(
            january == ["2026-01-05T09", "2026-01-21T07", "2026-01-26T09"],
            "EXDATE in UTC removed 12 Jan, 19 Jan moved out, 2 Mar moved in")
        let february = Self.spans(c, from: Self.utc(2026, 2, 1), to: Self.utc(2026, 3, 10)).map {
            String($0.prefix(13))
        }
        #expect(
            february == [
                "2026-02-02T09", "2026-02-09T09", "2026-02-10T14", "2026-02-16T09", "2026-02-23T09", "2026-03-09T09",
            ])
    }

    @Test func cancelledOverridesHideTheirInstance() throws {
        let cancelled = Self.event(
            "UID:w\nRECURRENCE-ID;TZID=Europe/Berlin:20260119T100000\nDTSTART;TZID=Europe/Berlin:20260119T100000\nSTATUS:CANCELLED"
        )
        let c = try Self.calendar(Self.weekly + cancelled)
        let got = Self.spans(c, from: Self.utc(2026, 1, 15), to: Self.utc(2026, 1, 25))
        #expect(got.isEmpty)
        // recurring-ical-events keeps them, with their STATUS; callers may ask for that.
        let kept = CalendarExpansion(calendar: c).occurrences(
            from: Self.utc(2026, 1, 15), to: Self.utc(2026, 1, 25), includeCancelled: true)
        #expect(kept.map { $0.component["STATUS"]?.text } == ["CANCELLED"])
    }

    @Test func thisAndFutureCarriesItsShiftAndPropertiesForward() throws {
        let future = Self.event(
            "UID:w\nRECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20260126T100000\nDTSTART;TZID=Europe/Berlin:20260126T140000\nDTEND;TZID=Europe/Berlin:20260126T143000\nSUMMARY:Later"
        )
        let c = try Self.calendar(Self.weekly + future)
        let e = CalendarExpansion(calendar: c)
        let got = e.occurrences(from: Self.utc(2026, 1, 15), to: Self.utc(2026, 2, 10))
        #expect(got.map { $0.component["SUMMARY"]?.text ?? "" } == ["", "Later", "Later", "Later"])
        #expect(got.map { LocalDateTime(secondsSinceEpoch: $0.startInstant).time.hour } == [9, 13, 13, 13])
        #expect(got.last.map { $0.endInstant - $0.startInstant } == 1800)
    }

    @Test func floatingAndAllDaySeriesStayFloatingAndDates() throws {
        let c = try Self.calendar(
            Self.event("UID:f\nDTSTART:20260301T090000\nRRULE:FREQ=DAILY;COUNT=2")
                + Self.event("UID:d\nDTSTART;VALUE=DATE:20260301\nDTEND;VALUE=DATE:20260303\nRRULE:FREQ=WEEKLY;COUNT=2")
        )
        let e = CalendarExpansion(calendar: c)
        let berlin = try #require(SystemZone(identifier: "Europe/Berlin"))
        let got = e.occurrences(from: Self.utc(2026, 2, 1), to: Self.utc(2026, 4, 1), floatingZone: berlin)
        #expect(got.filter { $0.uid == "f" }.allSatisfy { $0.start.form == .floating })
        #expect(
            got.filter { $0.uid == "f" }.first?.startInstant == Self.utc(2026, 3, 1, 8), "floating 09:00 read in Berlin"
        )
        #expect(
            got.filter { $0.uid == "d" }.map(\.end) == [
                DateTimeValue(date: LocalDate(year: 2026, month: 3, day: 3)),
                DateTimeValue(date: LocalDate(year: 2026, month: 3, day: 10)),
            ])
    }

    @Test func rdatesOfEveryKindAndSeveralRrulesAreUnited() throws {
        let c = try Self.calendar(
            Self.event(
                """
                UID:r
                DTSTART:20260301T090000Z
                DURATION:PT1H
                RRULE:FREQ=WEEKLY;COUNT=2
                RRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=1
                RDATE:20260320T120000Z
                RDATE;VALUE=PERIOD:20260325T100000Z/PT3H
                """))
        let got = Self.spans(c, from: Self.utc(2026, 3, 1), to: Self.utc(2026, 4, 1))
        #expect(
            got == [
                "2026-03-01T09:00:00Z/2026-03-01T10:00:00Z", "2026-03-08T09:00:00Z/2026-03-08T10:00:00Z",
                "2026-03-15T09:00:00Z/2026-03-15T10:00:00Z", "2026-03-20T12:00:00Z/2026-03-20T13:00:00Z",
                "2026-03-25T10:00:00Z/2026-03-25T13:00:00Z",
            ])
    }

    @Test func aWindowFarFromDtstartDoesNotWalkFromTheStart() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=DAILY")
        var far = RuleIterator(
            CompiledRule(rule, start: LocalDateTime(year: 1990, month: 1, day: 1, hour: 9)),
            from: LocalDateTime(year: 2026, month: 3, day: 2), stopAfter: LocalDateTime(year: 2026, month: 3, day: 9))
        var near = RuleIterator(
            CompiledRule(rule, start: LocalDateTime(year: 2026, month: 3, day: 1, hour: 9)),
            from: LocalDateTime(year: 2026, month: 3, day: 2), stopAfter: LocalDateTime(year: 2026, month: 3, day: 9))
        var a: [LocalDateTime] = [], b: [LocalDateTime] = []
        while let v = far.next() { a.append(v) }
        while let v = near.next() { b.append(v) }
        #expect(
            a.filter { $0.date >= LocalDate(year: 2026, month: 3, day: 2) }
                == b.filter { $0.date >= LocalDate(year: 2026, month: 3, day: 2) })
        #expect(far.periodsVisited <= near.periodsVisited + 2, "walked \(far.periodsVisited) periods")
    }

    @Test func countedSimpleRulesJumpToo() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=HOURLY;COUNT=1000000000")
        let start = LocalDateTime(year: 2020, month: 1, day: 1, hour: 0)
        var far = RuleIterator(
            CompiledRule(rule, start: start), from: LocalDateTime(year: 2026, month: 3, day: 2),
            stopAfter: LocalDateTime(year: 2026, month: 3, day: 2, hour: 3))
        var got: [LocalDateTime] = []
        while let v = far.next() { got.append(v) }
        #expect(got.last == LocalDateTime(year: 2026, month: 3, day: 2, hour: 3))
        #expect(far.periodsVisited < 10)
        // COUNT still counts from DTSTART: 3 instances, the last two hours before the jump target.
        let short = try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")
        var ended = RuleIterator(CompiledRule(short, start: start), from: LocalDateTime(year: 2026, month: 1, day: 1))
        #expect(ended.next() == nil)
    }

    @Test func absurdRulesAreBoundedAndSaySo() throws {
        let empty = try RecurrenceRule(parsing: "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30")
        var it = RuleIterator(CompiledRule(empty, start: LocalDateTime(year: 2026, month: 1, day: 1)))
        #expect(it.next() == nil)
        #expect(it.ending == .gaveUp || it.ending == .complete)
        let huge = try RecurrenceRule(parsing: "FREQ=SECONDLY;COUNT=1000000000;BYSETPOS=1")
        var bounded = RuleIterator(
            CompiledRule(huge, start: LocalDateTime(year: 2026, month: 1, day: 1)),
            stopAfter: LocalDateTime(year: 2026, month: 1, day: 1, hour: 1))
        var n = 0
        while bounded.next() != nil { n += 1 }
        #expect(n == 3601)
        #expect(bounded.ending == .bound)
    }

    @Test func seriesExpansionAnswersSpanEditQuestionsAndNearestOccurrences() throws {
        let c = try Self.calendar(Self.weekly)
        let index = try #require(SeriesExpansion(calendar: c, uid: "w"))
        let rid = { (d: Int) in
            DateTimeValue(LocalDateTime(year: 2026, month: 1, day: d, hour: 10), form: .zoned(tzid: "Europe/Berlin"))
        }
        #expect(index.isInstance(rid(19)))
        #expect(index.isInstance(DateTimeValue(LocalDateTime(year: 2026, month: 1, day: 19, hour: 9), form: .utc)))
        #expect(!index.isInstance(rid(20)))
        #expect(index.ruleInstanceCount(before: rid(19)) == 2)
        let near = index.nearest(to: rid(13))
        #expect(near.before == rid(5), "12 Jan is an EXDATE")
        #expect(near.after == rid(19))
    }

    @Test func anEmbeddedVTimezoneIsEvaluatedForAnUnknownTZID() throws {
        let vtimezone = TestEvent.centralEuropeanZone(tzid: "Office Time")
        let c = try Self.calendar(
            Self.event("UID:v\nDTSTART;TZID=Office Time:20260328T023000\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=2"),
            extra: vtimezone)
        let got = Self.spans(c, from: Self.utc(2026, 3, 1), to: Self.utc(2026, 4, 1))
        #expect(
            got == ["2026-03-28T01:30:00Z/2026-03-28T02:30:00Z", "2026-03-29T01:30:00Z/2026-03-29T02:30:00Z"],
            "02:30 in the embedded zone's gap moves to 03:30 +02:00")
    }

    @Test func dateExdatesRemoveWholeDays() throws {
        let c = try Self.calendar(
            Self.event("UID:d\nDTSTART;VALUE=DATE:20260301\nRRULE:FREQ=DAILY;COUNT=4\nEXDATE;VALUE=DATE:20260302")
                + Self.event(
                    "UID:t\nDTSTART:20260301T090000Z\nDURATION:PT1H\nRRULE:FREQ=HOURLY;COUNT=30\nEXDATE;VALUE=DATE:20260301"
                ))
        let e = CalendarExpansion(calendar: c)
        let got = e.occurrences(from: Self.utc(2026, 2, 1), to: Self.utc(2026, 4, 1))
        #expect(got.filter { $0.uid == "d" }.map(\.start.date.day) == [1, 3, 4])
        #expect(
            got.filter { $0.uid == "t" }.allSatisfy { $0.start.date.day == 2 },
            "a DATE EXDATE on a timed series removes that day")
        #expect(got.filter { $0.uid == "t" }.count == 15)
    }
}
