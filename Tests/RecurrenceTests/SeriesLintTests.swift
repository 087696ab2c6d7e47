import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// `lint` names the changes that `expand` and `list` leave out as changes to an older version
/// of their series (`SeriesLint`, run by `Linter` as one of its calendar checks).
@Suite struct SeriesLintTests {
    static let linter = Linter(calendarChecks: [SeriesLint.problems(in:)])

    @Test func aChangeToAnOlderVersionOutsideTheSeriesIsNamedAtItsRecurrenceID() throws {
        let url = TestPaths.fixtures.appendingPathComponent("readings/outdated-overrides.ics")
        let problems = Self.linter.lint(try Data(contentsOf: url)).filter {
            $0.message.contains("older version of the series")
        }
        // standup: the SEQUENCE 1 change of 9 February (line 27) with its RRULE, after the
        // SEQUENCE 2 master of line 42 ended at four; course: the change without SEQUENCE of
        // 10 February (line 63) with its EXDATE, after the UNTIL of the SEQUENCE:0 master.
        #expect(problems.map(\.line) == [27, 63], "\(problems)")
        #expect(problems.allSatisfy { $0.severity == .warning })
        #expect(
            problems.first?.message
                == "RECURRENCE-ID 20260209T093000 of UID standup@calgw.test is no instance of the series of line 42 "
                + "(SEQUENCE 2), and this change (SEQUENCE 1) carries its own RRULE: it changes an older version of "
                + "the series; calgw leaves it out, as recurring-ical-events does")
        #expect(problems.last?.message.contains("(no SEQUENCE) carries its own EXDATE") == true)
        // Without the series checks, the module's own lint says nothing of it.
        #expect(
            !Linter().lint(try Data(contentsOf: url)).contains { $0.message.contains("older version of the series") })
    }

    /// The series leaves out exactly what lint names, and keeps a change that carries no rule.
    @Test func theSeriesLeavesOutWhatLintNames() throws {
        let url = TestPaths.fixtures.appendingPathComponent("readings/outdated-overrides.ics")
        let calendar = try #require(try ICalendarParser().parse(Data(contentsOf: url)).calendar)
        let expansion = CalendarExpansion(calendar: calendar)
        let left = expansion.series.flatMap { $0.outdatedOverrides() }.compactMap { $0["SUMMARY"]?.text }
        #expect(left == ["Standup (moved, after the new end)", "Course (moved, no SEQUENCE, after the end)"])
        let shown = expansion.occurrences(from: 1_767_225_600, to: 1_776_211_200).compactMap {
            $0.component["SUMMARY"]?.text
        }
        #expect(shown.contains("Standup (moved, after the new end, no rule)"))
        #expect(!shown.contains { left.contains($0) })
    }
}
