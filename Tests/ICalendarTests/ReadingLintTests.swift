import Foundation
import Testing
import CalgwTestSupport
@testable import ICalendar

/// `lint` names each shape of calendar that calgw reads in a way of its own (several versions of
/// one event, a declared zone, invalid times, a DATE start with a timed end, a misspelled END),
/// and the reading, on the fixtures of `Fixtures/readings/` (changes to an older version of a
/// series, which need the series expanded: `SeriesLintTests`).
@Suite struct ReadingLintTests {
    func lint(fixture: String) throws -> [LintProblem] {
        Linter().lint(
            try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("readings").appendingPathComponent(fixture)))
    }

    func lint(_ body: String, calendar: String = "") -> [LintProblem] {
        Linter().lint(
            Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + calendar + body + "END:VCALENDAR\r\n").utf8)
        )
    }

    @Test func olderVersionsOfAnEventAreNamedWithTheOneCalgwReads() throws {
        let problems = try lint(fixture: "several-versions.ics").filter { $0.message.contains("versions of") }
        // planning: the first version (line 4) loses to the SEQUENCE 2 one (line 31); daily: the
        // SEQUENCE 1 version (line 51) to the SEQUENCE 3 one written before it (line 42);
        // review: the first change of 20260114T090000Z (line 78) to the second (line 69).
        #expect(problems.map(\.line) == [4, 51, 78], "\(problems)")
        #expect(problems.allSatisfy { $0.severity == .warning })
        #expect(problems[0].message.contains("older than the one of line 31 (SEQUENCE 2"))
        #expect(problems[1].message.contains("older than the one of line 42 (SEQUENCE 3"))
        #expect(problems[2].message.contains("the change of 20260114T090000Z of UID review@calgw.test"))
    }

    @Test func equalSequencesAreDecidedByTheLaterDTSTAMP() {
        let event = { (stamp: String, summary: String) in
            "BEGIN:VEVENT\r\nUID:1\r\nSEQUENCE:4\r\nDTSTAMP:\(stamp)\r\nDTSTART:20260101T100000Z\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\n"
        }
        let problems = lint(event("20260301T000000Z", "newer") + event("20260201T000000Z", "older")).filter {
            $0.message.contains("versions of")
        }
        #expect(problems.map(\.line) == [11])
    }

    @Test func invalidTimesNameTheProblemAndTheReading() throws {
        let problems = try lint(fixture: "invalid-times.ics")
        let at = { (line: Int) in problems.filter { $0.line == line }.map(\.message) }
        #expect(
            at(8).contains { $0.contains("is before DTSTART") && $0.contains("from the earlier time to the later") })
        #expect(at(15).contains { $0.contains("is before DTSTART") })
        #expect(at(23).contains { $0.contains("is before DTSTART") })
        #expect(
            at(31) == [
                "RRULE: COUNT=-2 is negative: calgw ignores the COUNT and repeats the rule without end, as recurring-ical-events does"
            ])
        #expect(
            at(40).contains {
                $0.hasPrefix("RDATE is a DATE but DTSTART is a DATE-TIME: calgw adds an occurrence at midnight")
            })
        #expect(
            at(41).contains {
                $0.hasPrefix("EXDATE is a DATE but DTSTART is a DATE-TIME: calgw removes every occurrence on that day")
            })
        #expect(
            at(50).contains { $0.hasPrefix("RDATE is a DATE-TIME but DTSTART is a DATE: calgw adds the whole day") })
        #expect(
            at(51).contains {
                $0.hasPrefix("EXDATE is a DATE-TIME but DTSTART is a DATE: calgw removes the day of its date")
            })
        #expect(at(52).contains { $0.contains("nothing for any other time") })
    }

    @Test func aNegativeCountStillBlocksLikeAnyInvalidRule() {
        // Hand edits with an invalid RRULE are held back from sync by its "RRULE:" error.
        let problems = lint(
            "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T100000Z\r\nRRULE:COUNT=-3;FREQ=DAILY\r\nEND:VEVENT\r\n"
        )
        #expect(problems.contains { $0.severity == .error && $0.message.hasPrefix("RRULE: COUNT=-3 is negative") })
    }

    @Test func aDeclaredZoneCalgwDoesNotKnowIsReported() {
        let body = "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T100000\r\nEND:VEVENT\r\n"
        #expect(
            lint(body, calendar: "X-WR-TIMEZONE:Mars/Olympus\r\n").contains {
                $0.line == 4 && $0.message.contains("not a known zone")
            })
        #expect(
            !lint(body, calendar: "X-WR-TIMEZONE:America/New_York\r\n").contains {
                $0.message.contains("X-WR-TIMEZONE")
            })
    }

    /// A DATE DTSTART with a DATE-TIME DTEND (and a DATE DTEND of a timed DTSTART): an error at
    /// the DTEND (RFC 5545 forbids it) naming the clock the day's midnight is read on.
    @Test func aDateStartWithATimedEndNamesTheMidnightItStartsAt() throws {
        let problems = try lint(fixture: "date-start-timed-end.ics")
        let at = { (line: Int) in problems.filter { $0.line == line } }
        #expect(
            at(8).map(\.message) == [
                "DTEND is a DATE-TIME but DTSTART is a DATE, which RFC 5545 forbids: calgw starts the event at "
                    + "00:00 of its day in UTC (a timed event, not an all-day one), as recurring-ical-events does"
            ])
        #expect(at(8).allSatisfy { $0.severity == .error })
        #expect(at(56).contains { $0.message.contains("at 00:00 of its day in Europe/Berlin") })
        #expect(at(63).contains { $0.message.contains("at 00:00 of its day in floating time") })
        #expect(
            at(77).contains {
                $0.message == "DTEND is a DATE but DTSTART is a DATE-TIME, which RFC 5545 forbids: calgw ends the "
                    + "event at 00:00 of that day in Europe/Berlin, as recurring-ical-events does"
            })
    }

    /// `END:VTOOD` closing a VTODO: one error at that line, saying how `expand` and `list` read
    /// it and that sync holds the file back; the rest of the file is checked as usual (no
    /// error cascades to the END:VCALENDAR).
    @Test func aMisspelledEndIsOneErrorAndTheRestIsChecked() throws {
        let problems = try lint(fixture: "misspelled-end.ics")
        let errors = problems.filter { $0.severity == .error }
        #expect(errors.map(\.line) == [21], "\(problems)")
        #expect(
            errors.first?.message
                == "END:VTOOD closes BEGIN:VTODO of line 11: expand and list read it as the END of that component "
                + "and read on, as recurring-ical-events does; sync holds the file back until the line is fixed")
        // Checked past the END: the two UIDs of the file.
        #expect(problems.contains { $0.message.contains("different UIDs in one calendar") }, "\(problems)")
        // An END naming a component further out (an END missing inside) is still broken structure.
        let missing = lint(
            "BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T100000Z\r\nBEGIN:VALARM\r\n"
                + "ACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nEND:VEVENT\r\n")
        #expect(
            missing.filter { $0.severity == .error }.map(\.message).contains("END:VEVENT closes BEGIN:VALARM of line 8")
        )
    }
}
