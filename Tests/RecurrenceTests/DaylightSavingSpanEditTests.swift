import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// Span edits of an instance whose rule time falls in a DST gap: the instance is found by its
/// gap time, by the clock time after the gap and by its UTC instant, and edits, splits and
/// deletions leave every other occurrence as expansion had it.
@Suite struct DaylightSavingSpanEditTests {
    static let now = DateTimeValue(LocalDateTime(year: 2026, month: 11, day: 23, hour: 9), form: .utc)

    struct Gap: Sendable, CustomStringConvertible {
        /// A gap-crossing series (from `DaylightSavingGapTests.cases`).
        var series: DaylightSavingGapTests.Case
        /// A rule time inside the gap.
        var gapTime: LocalDateTime
        var description: String { "\(series.zone) \(gapTime)" }
    }

    static let gaps: [Gap] = [
        Gap(series: DaylightSavingGapTests.cases[0], gapTime: LocalDateTime(year: 2027, month: 3, day: 14, hour: 2, minute: 30)),
        Gap(series: DaylightSavingGapTests.cases[22], gapTime: LocalDateTime(year: 2027, month: 3, day: 14, hour: 2, minute: 30)),
    ]

    static func context(_ gap: Gap) throws -> (calendar: Component, expansion: SeriesExpansion, zone: any ZoneRules) {
        let calendar = try DaylightSavingGapTests.parse(gap.series.calendar)
        let expansion = try #require(SeriesExpansion(calendar: calendar, uid: "dst@calgw.test"))
        let zone = try #require(TimeZoneResolver(calendar: calendar).zone(for: gap.series.zone))
        return (calendar, expansion, zone)
    }

    static func spans(_ calendars: Component?...) -> [[Int64]] {
        calendars.compactMap { $0 }.flatMap(DaylightSavingGapTests.ours).map { [$0.startInstant, $0.endInstant] }.sorted { $0[0] < $1[0] }
    }

    @Test(arguments: gaps)
    func theGapInstanceIsFoundByEveryNameOfItsInstant(_ gap: Gap) throws {
        let (_, expansion, zone) = try Self.context(gap)
        let form = DateTimeValue.Form.zoned(tzid: gap.series.zone)
        let instant = zone.utc(forLocal: gap.gapTime)
        #expect(expansion.isInstance(DateTimeValue(gap.gapTime, form: form)))
        #expect(expansion.isInstance(DateTimeValue(zone.local(atUTC: instant), form: form)))
        #expect(expansion.isInstance(DateTimeValue(LocalDateTime(secondsSinceEpoch: instant), form: .utc)))
        #expect(!expansion.isInstance(DateTimeValue(LocalDateTime(secondsSinceEpoch: instant + 600), form: .utc)))
        // COUNT for "everything before it" keeps exactly the occurrences that start earlier.
        let earlier = DaylightSavingGapTests.ours(try DaylightSavingGapTests.parse(gap.series.calendar)).filter { $0.startInstant < instant }
        #expect(expansion.ruleInstanceCount(before: DateTimeValue(gap.gapTime, form: form)) == earlier.count)
    }

    @Test(arguments: gaps)
    func editingTheGapInstanceOverridesItAlone(_ gap: Gap) throws {
        let (calendar, expansion, zone) = try Self.context(gap)
        let instant = zone.utc(forLocal: gap.gapTime)
        let editor = try SeriesEditor(calendar: calendar, uid: "dst@calgw.test", now: Self.now)
        let result = try editor.editOccurrence(DateTimeValue(gap.gapTime, form: .zoned(tzid: gap.series.zone)), span: .thisEvent,
                                               changes: EventChanges(summary: "Moved"), instances: expansion, newUID: "new@calgw.test")
        let edited = try #require(result.resource)
        #expect(Self.spans(edited) == Self.spans(calendar))
        let changed = DaylightSavingGapTests.ours(edited).filter { $0.component["SUMMARY"]?.text == "Moved" }
        #expect(changed.map(\.startInstant) == [instant])
        #expect(changed.allSatisfy { $0.endInstant >= $0.startInstant })
    }

    @Test(arguments: gaps)
    func splittingAtTheGapInstanceKeepsEveryOccurrence(_ gap: Gap) throws {
        let (calendar, expansion, zone) = try Self.context(gap)
        let instant = zone.utc(forLocal: gap.gapTime)
        let editor = try SeriesEditor(calendar: calendar, uid: "dst@calgw.test", now: Self.now)
        let result = try editor.editOccurrence(DateTimeValue(gap.gapTime, form: .zoned(tzid: gap.series.zone)), span: .futureEvents,
                                               changes: EventChanges(summary: "Later"), instances: expansion, newUID: "new@calgw.test")
        let kept = try #require(result.resource), later = try #require(result.newSeries)
        #expect(Self.spans(kept, later) == Self.spans(calendar))
        #expect(DaylightSavingGapTests.ours(kept).allSatisfy { $0.startInstant < instant })
        #expect(DaylightSavingGapTests.ours(later).first?.startInstant == instant)
        #expect(DaylightSavingGapTests.ours(later).allSatisfy { $0.component["SUMMARY"]?.text == "Later" })
    }

    @Test(arguments: gaps)
    func deletingTheGapInstanceRemovesItAlone(_ gap: Gap) throws {
        let (calendar, expansion, zone) = try Self.context(gap)
        let instant = zone.utc(forLocal: gap.gapTime)
        let editor = try SeriesEditor(calendar: calendar, uid: "dst@calgw.test", now: Self.now)
        let result = try editor.deleteOccurrence(DateTimeValue(gap.gapTime, form: .zoned(tzid: gap.series.zone)), span: .thisEvent,
                                                 instances: expansion)
        let before = Self.spans(calendar)
        #expect(Self.spans(result.resource) == before.filter { $0[0] != instant })
        #expect(before.contains { $0[0] == instant })
    }
}
