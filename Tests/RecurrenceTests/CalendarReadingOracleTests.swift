import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// Calendars as other programs write them (`Fixtures/readings/`): several versions of one
/// event, X-WR-TIMEZONE, invalid times, changes to an older version of a series, a DATE start
/// with a timed end, and a misspelled END, expanded as recurring-ical-events 3.8 expands them.
@Suite struct CalendarReadingOracleTests {
    static let window = (from: "2026-01-01", to: "2026-04-15")

    /// The occurrences of `fixture` from calgw (read as `expand` and `list` read it, its
    /// declared zone applied) and from the reference, each as `uid|start|end|summary` with
    /// instants in UTC, sorted.
    static func both(_ fixture: String) async throws -> (ours: [String], reference: [String]) {
        let url = TestPaths.fixtures.appendingPathComponent("readings").appendingPathComponent(fixture)
        let answers = try await CorpusExpansionTests.reference(files: [url], from: window.from, to: window.to)
        guard case .items(let expected) = try #require(answers.first) else {
            Issue.record("the reference cannot read \(fixture): \(answers)")
            return ([], [])
        }
        let parsed = try ICalendarParser(readsPastMisspelledEnds: true).parse(Data(contentsOf: url))
        let got = CorpusExpansionTests.ours(
            parsed.components.map(DeclaredCalendarZone.applied(to:)), from: LocalDate(year: 2026, month: 1, day: 1),
            to: LocalDate(year: 2026, month: 4, day: 15))
        let key = { (i: CorpusExpansionTests.Item) in "\(i.uid)|\(i.start ?? "-")|\(i.end ?? "-")|\(i.summary)" }
        let ours = got.map(key).sorted(), reference = expected.map(key).sorted()
        if ours != reference {
            Issue.record(
                "\(fixture): missing \(Set(reference).subtracting(ours).sorted()); extra \(Set(ours).subtracting(reference).sorted())"
            )
        }
        return (ours, reference)
    }

    /// Two or more VEVENTs with one UID and no RECURRENCE-ID: the highest SEQUENCE is the event,
    /// with its own EXDATE and RDATE; of two changes to one instance the higher SEQUENCE wins.
    @Test func severalVersionsOfOneEventExpandAsTheNewest() async throws {
        let (ours, reference) = try await Self.both("several-versions.ics")
        #expect(reference.count == 13)
        #expect(ours == reference)
    }

    /// A calendar naming its zone in X-WR-TIMEZONE: floating DTSTART, DTEND, RDATE, EXDATE and
    /// RECURRENCE-ID are read in it (across New York's change to summer time); UTC times,
    /// dates and times of another zone stay as they are.
    @Test func floatingTimesAreReadInTheZoneTheCalendarNames() async throws {
        let (ours, reference) = try await Self.both("x-wr-timezone.ics")
        #expect(reference.count == 8)
        #expect(ours == reference)
    }

    /// DTEND before DTSTART, a negative COUNT, and DATE / DATE-TIME mixed between DTSTART and
    /// RDATE / EXDATE.
    @Test func invalidTimesAreReadAsRecurringIcalEventsReadsThem() async throws {
        let (ours, reference) = try await Self.both("invalid-times.ics")
        #expect(reference.count == 24)
        #expect(ours == reference)
    }

    /// Changes that carry their own RRULE, RDATE or EXDATE (copies of the master they were
    /// written against) with a lower SEQUENCE than the master, for instances a newer master
    /// no longer has (it ended the series earlier with COUNT or UNTIL): left out, a missing
    /// SEQUENCE counting lower than 0. A change without rules of its own, or with the master's
    /// SEQUENCE, keeps its place; one inside the series replaces its instance.
    @Test func changesToAnOlderVersionOutsideTheSeriesAreLeftOut() async throws {
        let (ours, reference) = try await Self.both("outdated-overrides.ics")
        #expect(reference.count == 10)
        #expect(!reference.contains { $0.contains("moved, after the new end)") || $0.contains("no SEQUENCE, after") })
        #expect(reference.contains { $0.contains("moved, after the new end, no rule)") })
        #expect(ours == reference)
    }

    /// A DATE DTSTART with a DATE-TIME DTEND is a timed event from 00:00 of its day in DTEND's
    /// form (UTC, its zone, floating), in a series too (DATE UNTIL, EXDATE, RDATE and
    /// RECURRENCE-ID at that midnight); a DATE DTEND of a timed DTSTART ends at 00:00 of its
    /// day in DTSTART's zone.
    @Test func aDateStartWithATimedEndStartsAtMidnightOfTheEndsClock() async throws {
        let (ours, reference) = try await Self.both("date-start-timed-end.ics")
        #expect(reference.count == 14)
        #expect(reference.contains { $0.hasPrefix("offsite@calgw.test|2026-01-10T00:00:00Z|2026-01-10T15:00:00Z|") })
        #expect(ours == reference)
    }

    /// `END:VTOOD` closing a VTODO: the rest of the file is read, its events listed; the parse
    /// names the line it read past.
    @Test func aMisspelledEndIsReadPast() async throws {
        let (ours, reference) = try await Self.both("misspelled-end.ics")
        #expect(reference.count == 5)
        #expect(ours == reference)
        let url = TestPaths.fixtures.appendingPathComponent("readings").appendingPathComponent("misspelled-end.ics")
        let parsed = try ICalendarParser(readsPastMisspelledEnds: true).parse(Data(contentsOf: url))
        #expect(parsed.readPast.map(\.line) == [21])
        #expect(throws: ICalendarSyntaxError.self) { try ICalendarParser().parse(Data(contentsOf: url)) }
    }
}
