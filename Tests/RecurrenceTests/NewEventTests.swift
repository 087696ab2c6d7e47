import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// New events: the properties `event add` promises, checked on the written text and by an
/// outside reader (recurring-ical-events) expanding it.
@Suite struct NewEventTests {
    let now = SpanEditTests.now
    let berlin = DateTimeValue.Form.zoned(tzid: "Europe/Berlin")

    func text(_ draft: NewEvent, uid: String = "new@calgw.test") throws -> String {
        ICalendarSerializer().string(try draft.resource(uid: uid, now: now))
    }

    @Test func timedEventCarriesIdentityClockAndZone() throws {
        let start = DateTimeValue(LocalDateTime(year: 2026, month: 3, day: 29, hour: 1, minute: 30), form: berlin)
        let written = try text(NewEvent(summary: "Night, call", start: start, location: "Room; 2"))
        for line in [
            "UID:new@calgw.test", "DTSTAMP:20261123T090000Z", "CREATED:20261123T090000Z",
            "LAST-MODIFIED:20261123T090000Z", "SEQUENCE:0", "DTSTART;TZID=Europe/Berlin:20260329T013000",
            "DTEND;TZID=Europe/Berlin:20260329T023000", "SUMMARY:Night\\, call", "LOCATION:Room\\; 2",
        ] {
            #expect(written.contains(line + "\r\n"), "missing \(line) in\n\(written)")
        }
        // Valid; the one remark is the VTIMEZONE the file leaves to its readers (calgw adds it
        // when uploading).
        let problems = Linter().lint(Data(written.utf8))
        #expect(
            problems.count == 1
                && problems.allSatisfy { "\($0)".contains("warning: TZID \"Europe/Berlin\" has no VTIMEZONE") },
            "\(problems)")
    }

    @Test func allDayEventHasExclusiveDateEnd() async throws {
        let written = try text(
            NewEvent(summary: "Holiday", start: DateTimeValue(date: LocalDate(year: 2026, month: 12, day: 31))))
        #expect(written.contains("DTSTART;VALUE=DATE:20261231\r\n"))
        #expect(written.contains("DTEND;VALUE=DATE:20270101\r\n"))
        let occurrences = try await Oracle.occurrences([written])
        #expect(occurrences.map(\.start) == ["2026-12-31"])
        #expect(occurrences.first?.end == "2027-01-01")
    }

    @Test func recurringEventExpandsAsItsRuleSays() async throws {
        let start = DateTimeValue(LocalDateTime(year: 2026, month: 3, day: 23, hour: 9), form: berlin)
        let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=3")
        let written = try text(
            NewEvent(summary: "Standup", start: start, duration: ICalDuration(minutes: 15), recurrenceRule: rule))
        #expect(written.contains("DURATION:PT15M\r\n") && !written.contains("DTEND"))
        let occurrences = try await Oracle.occurrences([written])
        // The DST change on 29 March keeps the wall-clock time.
        #expect(
            occurrences.map(\.start) == [
                "2026-03-23T09:00:00+01:00", "2026-03-30T09:00:00+02:00",
                "2026-04-06T09:00:00+02:00",
            ])
    }

    @Test func endBeforeStartOrOfAnotherKindIsRefused() {
        let start = DateTimeValue(LocalDateTime(year: 2026, month: 3, day: 23, hour: 9), form: .utc)
        #expect(throws: SpanEditError.self) {
            try NewEvent(
                summary: "x", start: start,
                end: DateTimeValue(LocalDateTime(year: 2026, month: 3, day: 23, hour: 8), form: .utc)
            )
            .resource(uid: "u", now: now)
        }
        #expect(throws: SpanEditError.self) {
            try NewEvent(summary: "x", start: start, end: DateTimeValue(date: LocalDate(year: 2026, month: 3, day: 24)))
                .resource(uid: "u", now: now)
        }
        #expect(throws: SpanEditError.self) {
            try NewEvent(summary: "x", start: start, duration: ICalDuration(isNegative: true, hours: 1)).resource(
                uid: "u", now: now)
        }
    }
}
