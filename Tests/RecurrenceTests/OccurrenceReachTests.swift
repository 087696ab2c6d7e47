import CalgwTestSupport
import Foundation
import ICalendar
import Recurrence
import Testing

/// A calendar's reach holds every occurrence it has in any window, read in any zone: where
/// the reach says "nothing here", an expansion finds nothing. And it is tight enough to be
/// worth having: windows far from a finite series, and between a yearly event's dates, are
/// passed over.
@Suite struct OccurrenceReachTests {
    static let zones: [any ZoneRules] =
        [FixedOffsetZone.utc]
        + ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Apia", "Asia/Kathmandu", "America/St_Johns"].map {
            SystemZone(identifier: $0)!
        }

    static func expansion(_ text: String) throws -> CalendarExpansion {
        let parsed = try ICalendarParser().parse(text)
        return CalendarExpansion(components: parsed.components.map(DeclaredCalendarZone.applied(to:)))
    }

    static func instant(_ year: Int, _ month: Int = 1, _ day: Int = 1) -> Int64 {
        LocalDateTime(year: year, month: month, day: day).secondsSinceEpoch
    }

    /// Windows from an hour to decades long, around `year` and far from it, in every zone.
    static func checkCovers(
        _ expansion: CalendarExpansion, near year: Int, windows: Int, random: inout SeededRandom, label: String
    ) {
        let reach = expansion.reach()
        // Some windows at the edges of occurrences read in UTC, moved as far as other zones move them.
        let edges = expansion.occurrences(from: instant(year - 1), to: instant(year + 3)).prefix(8).flatMap {
            [$0.startInstant, $0.endInstant]
        }
        for w in 0..<windows {
            let center =
                w % 2 == 0 && !edges.isEmpty
                ? edges[Int.random(in: 0..<edges.count, using: &random)]
                    + Int64.random(in: -30 * 3_600...30 * 3_600, using: &random)
                : instant(year + Int.random(in: -3...15, using: &random))
                    + Int64.random(in: 0..<(366 * 86_400), using: &random)
            let length = [600, 3_600, 86_400, 7 * 86_400, 31 * 86_400, 366 * 86_400, 40 * 366 * 86_400][
                Int.random(in: 0..<(w % 2 == 0 ? 2 : 7), using: &random)]
            let from = center - Int64(length / 2)
            let zone = zones[Int.random(in: 0..<zones.count, using: &random)]
            let cancelled = Bool.random(using: &random)
            // The first occurrences of each series are enough to know the window holds some.
            let found = expansion.series.flatMap {
                $0.occurrences(
                    from: from, to: from + Int64(length), floatingZone: zone, limit: 1_000, includeCancelled: cancelled)
            }
            if !found.isEmpty {
                #expect(
                    reach.touches(from: from, to: from + Int64(length)),
                    """
                    \(label): \(found.count) occurrences in [\(from), +\(length)) read in \(zone.identifier), \
                    the first at \(found[0].startInstant), outside \(reach.spans)
                    """)
            }
        }
    }

    @Test func randomSeriesLieWithinTheirReach() throws {
        let count = TestLoad.isOn ? 3_000 : 100
        for seed in 0..<UInt64(count) {
            var calendars = RandomCalendar(seed: seed)
            let text = calendars.calendar(uid: "r\(seed)")
            let expansion = try Self.expansion(text)
            var random = SeededRandom(seed: seed &* 31 &+ 7)
            Self.checkCovers(
                expansion, near: calendars.year, windows: 25, random: &random, label: "seed \(seed)\n\(text)")
        }
    }

    @Test func corpusCalendarsLieWithinTheirReach() throws {
        let files = CorpusFiles.icsFiles()
        #expect(files.count > 100)
        var random = SeededRandom(seed: 55)
        for url in files {
            guard let parsed = try? ICalendarParser().parse(Data(contentsOf: url)) else { continue }
            let expansion = CalendarExpansion(components: parsed.components.map(DeclaredCalendarZone.applied(to:)))
            Self.checkCovers(expansion, near: 2005, windows: 40, random: &random, label: CorpusFiles.name(of: url))
        }
    }

    @Test func aSingleEventReachesOnlyAroundItself() throws {
        let reach = try Self.expansion(
            TestEvent.ics(uid: "a", summary: "a", start: "20260310T100000Z", duration: "PT1H")
        )
        .reach()
        #expect(reach.touches(from: Self.instant(2026, 3, 10), to: Self.instant(2026, 3, 11)))
        #expect(!reach.touches(from: Self.instant(2026, 4, 1), to: Self.instant(2026, 5, 1)))
        #expect(!reach.touches(from: Self.instant(2025, 1, 1), to: Self.instant(2026, 3, 1)))
    }

    @Test func aYearlySeriesIsPassedOverBetweenItsDates() throws {
        let text = TestEvent.ics(
            uid: "b", summary: "birthday", start: "20100704T090000Z", duration: "PT1H", extra: ["RRULE:FREQ=YEARLY"])
        let reach = try Self.expansion(text).reach()
        #expect(reach.touches(from: Self.instant(2026, 7, 1), to: Self.instant(2026, 8, 1)))
        #expect(!reach.touches(from: Self.instant(2026, 3, 1), to: Self.instant(2026, 4, 1)))
        // Past the instances counted one by one, the rest of a series without end is one span.
        #expect(reach.touches(from: Self.instant(2300, 3, 1), to: Self.instant(2300, 4, 1)))
    }

    @Test func aSeriesThatEndedIsPassedOverAfterItsEnd() throws {
        let counted = try Self.expansion(
            TestEvent.ics(
                uid: "c", summary: "c", start: "20200106T090000Z", duration: "PT1H",
                extra: ["RRULE:FREQ=WEEKLY;COUNT=300"])
        )
        .reach()
        #expect(counted.touches(from: Self.instant(2025, 9, 1), to: Self.instant(2025, 10, 1)))
        #expect(!counted.touches(from: Self.instant(2026, 3, 1), to: Self.instant(2026, 4, 1)))
        let until = try Self.expansion(
            TestEvent.ics(
                uid: "d", summary: "d", start: "20200106T090000Z", duration: "PT1H",
                extra: ["RRULE:FREQ=DAILY;UNTIL=20211231T235959Z"])
        ).reach()
        #expect(until.touches(from: Self.instant(2021, 12, 1), to: Self.instant(2022, 1, 1)))
        #expect(!until.touches(from: Self.instant(2026, 3, 1), to: Self.instant(2026, 4, 1)))
    }

    @Test func anOverrideMovedFarAwayIsReachedWhereItWentTo() throws {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:e\r
            DTSTART:20260105T090000Z\r
            DURATION:PT1H\r
            RRULE:FREQ=WEEKLY;COUNT=3\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:e\r
            RECURRENCE-ID:20260112T090000Z\r
            DTSTART:20400301T090000Z\r
            DURATION:PT1H\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let reach = try Self.expansion(text).reach()
        #expect(reach.touches(from: Self.instant(2040, 3, 1), to: Self.instant(2040, 3, 2)))
        #expect(!reach.touches(from: Self.instant(2030, 3, 1), to: Self.instant(2030, 4, 1)))
    }
}
