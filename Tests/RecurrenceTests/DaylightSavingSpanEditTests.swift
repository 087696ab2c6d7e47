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
        Gap(
            series: DaylightSavingGapTests.cases[0],
            gapTime: LocalDateTime(year: 2027, month: 3, day: 14, hour: 2, minute: 30)),
        Gap(
            series: DaylightSavingGapTests.cases[22],
            gapTime: LocalDateTime(year: 2027, month: 3, day: 14, hour: 2, minute: 30)),
    ]

    /// A gap's series parsed, expanded and ready to edit, with the gap instance's instant and
    /// its name in the series' zone.
    struct Context {
        var calendar: Component
        var expansion: SeriesExpansion
        var zone: any ZoneRules
        var instant: Int64
        var occurrence: DateTimeValue
        var editor: SeriesEditor
    }

    static func context(_ gap: Gap) throws -> Context {
        let calendar = try DaylightSavingGapTests.parse(gap.series.calendar)
        let expansion = try #require(SeriesExpansion(calendar: calendar, uid: "dst@calgw.test"))
        let zone = try #require(TimeZoneResolver(calendar: calendar).zone(for: gap.series.zone))
        return Context(
            calendar: calendar, expansion: expansion, zone: zone, instant: zone.utc(forLocal: gap.gapTime),
            occurrence: DateTimeValue(gap.gapTime, form: .zoned(tzid: gap.series.zone)),
            editor: try SeriesEditor(calendar: calendar, uid: "dst@calgw.test", now: now))
    }

    static func spans(_ calendars: Component?...) -> [[Int64]] {
        calendars.compactMap { $0 }.flatMap(DaylightSavingGapTests.ours).map { [$0.startInstant, $0.endInstant] }.sorted
        { $0[0] < $1[0] }
    }

    @Test(arguments: gaps)
    func theGapInstanceIsFoundByEveryNameOfItsInstant(_ gap: Gap) throws {
        let c = try Self.context(gap), expansion = c.expansion, instant = c.instant
        let form = DateTimeValue.Form.zoned(tzid: gap.series.zone)
        #expect(expansion.isInstance(c.occurrence))
        #expect(expansion.isInstance(DateTimeValue(c.zone.local(atUTC: instant), form: form)))
        #expect(expansion.isInstance(DateTimeValue(LocalDateTime(secondsSinceEpoch: instant), form: .utc)))
        #expect(!expansion.isInstance(DateTimeValue(LocalDateTime(secondsSinceEpoch: instant + 600), form: .utc)))
        // COUNT for "everything before it" keeps exactly the occurrences that start earlier.
        let earlier = DaylightSavingGapTests.ours(try DaylightSavingGapTests.parse(gap.series.calendar)).filter {
            $0.startInstant < instant
        }
        #expect(expansion.ruleInstanceCount(before: c.occurrence) == earlier.count)
    }

    @Test(arguments: gaps)
    func editingTheGapInstanceOverridesItAlone(_ gap: Gap) throws {
        let c = try Self.context(gap), calendar = c.calendar, instant = c.instant
        let result = try c.editor.editOccurrence(
            c.occurrence, span: .thisEvent, changes: EventChanges(summary: "Moved"),
            instances: c.expansion, newUID: "new@calgw.test")
        let edited = try #require(result.resource)
        #expect(Self.spans(edited) == Self.spans(calendar))
        let changed = DaylightSavingGapTests.ours(edited).filter { $0.component["SUMMARY"]?.text == "Moved" }
        #expect(changed.map(\.startInstant) == [instant])
        #expect(changed.allSatisfy { $0.endInstant >= $0.startInstant })
    }

    @Test(arguments: gaps)
    func splittingAtTheGapInstanceKeepsEveryOccurrence(_ gap: Gap) throws {
        let c = try Self.context(gap), calendar = c.calendar, instant = c.instant
        let result = try c.editor.editOccurrence(
            c.occurrence, span: .futureEvents, changes: EventChanges(summary: "Later"),
            instances: c.expansion, newUID: "new@calgw.test")
        let kept = try #require(result.resource), later = try #require(result.newSeries)
        #expect(Self.spans(kept, later) == Self.spans(calendar))
        #expect(DaylightSavingGapTests.ours(kept).allSatisfy { $0.startInstant < instant })
        #expect(DaylightSavingGapTests.ours(later).first?.startInstant == instant)
        #expect(DaylightSavingGapTests.ours(later).allSatisfy { $0.component["SUMMARY"]?.text == "Later" })
    }

    @Test(arguments: gaps)
    func deletingTheGapInstanceRemovesItAlone(_ gap: Gap) throws {
        let c = try Self.context(gap), calendar = c.calendar, instant = c.instant
        let result = try c.editor.deleteOccurrence(c.occurrence, span: .thisEvent, instances: c.expansion)
        let before = Self.spans(calendar)
        #expect(Self.spans(result.resource) == before.filter { $0[0] != instant })
        #expect(before.contains { $0[0] == instant })
    }
}
