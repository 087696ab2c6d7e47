import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// Calendars as other programs write them (`Fixtures/readings/`): several versions of one
/// event, X-WR-TIMEZONE, and invalid times, expanded as recurring-ical-events 3.8 expands them.
@Suite struct CalendarReadingOracleTests {
    static let window = (from: "2026-01-01", to: "2026-04-15")

    /// The occurrences of `fixture` from calgw (read as `expand` and `list` read it, its
    /// declared zone applied) and from the reference, each as `uid|start|end|summary` with
    /// instants in UTC, sorted.
    static func both(_ fixture: String) throws -> (ours: [String], reference: [String]) {
        let url = TestPaths.fixtures.appendingPathComponent("readings").appendingPathComponent(fixture)
        let answers = try CorpusExpansionTests.reference(files: [url], from: window.from, to: window.to)
        guard case .items(let expected) = try #require(answers.first) else {
            Issue.record("the reference cannot read \(fixture): \(answers)")
            return ([], [])
        }
        let parsed = try ICalendarParser().parse(Data(contentsOf: url))
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
    @Test func severalVersionsOfOneEventExpandAsTheNewest() throws {
        let (ours, reference) = try Self.both("several-versions.ics")
        #expect(reference.count == 13)
        #expect(ours == reference)
    }

    /// A calendar naming its zone in X-WR-TIMEZONE: floating DTSTART, DTEND, RDATE, EXDATE and
    /// RECURRENCE-ID are read in it (across New York's change to summer time); UTC times,
    /// dates and times of another zone stay as they are.
    @Test func floatingTimesAreReadInTheZoneTheCalendarNames() throws {
        let (ours, reference) = try Self.both("x-wr-timezone.ics")
        #expect(reference.count == 8)
        #expect(ours == reference)
    }

    /// DTEND before DTSTART, a negative COUNT, and DATE / DATE-TIME mixed between DTSTART and
    /// RDATE / EXDATE.
    @Test func invalidTimesAreReadAsRecurringIcalEventsReadsThem() throws {
        let (ours, reference) = try Self.both("invalid-times.ics")
        #expect(reference.count == 24)
        #expect(ours == reference)
    }
}
