import Foundation
import ICalendar
import Testing

@testable import Graph

/// Seeded random recurrences of every type, from start dates on and off their pattern: calgw's
/// expansion of the iCalendar made from each gives the dates Graph's pattern gives, and the
/// write gives back the same recurrence (from the first occurrence).
@Suite struct GraphRandomPatternTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    static func randomRecurrence(_ g: inout Generator) -> GraphPatternedRecurrence {
        let type = GraphRecurrencePatternType.known.randomElement(using: &g)!
        var p = GraphRecurrencePattern(type: type, interval: Int.random(in: 1...3, using: &g))
        let days = GraphDayOfWeek.allDays.filter { _ in Bool.random(using: &g) }
        switch type {
        case .weekly:
            p.daysOfWeek = days.isEmpty ? [.friday] : days
            p.firstDayOfWeek = GraphDayOfWeek.allDays.randomElement(using: &g)
        case .absoluteMonthly:
            p.dayOfMonth = Int.random(in: 1...31, using: &g)
        case .relativeMonthly, .relativeYearly:
            p.daysOfWeek = days.isEmpty ? [.tuesday] : days
            p.index = GraphWeekIndex.known.randomElement(using: &g)
            if type == .relativeYearly { p.month = Int.random(in: 1...12, using: &g) }
        case .absoluteYearly:
            p.month = Int.random(in: 1...12, using: &g)
            p.dayOfMonth = Int.random(in: 1...LocalDate.daysIn(month: p.month!, year: 2000), using: &g)
        default:
            break
        }
        let start = LocalDate(year: 2026, month: 1, day: 1).adding(days: Int.random(in: 0...365, using: &g))
        var r = GraphRecurrenceRange(
            type: GraphRecurrenceRangeType.known.randomElement(using: &g)!, startDate: start.isoString)
        r.recurrenceTimeZone = "Eastern Standard Time"
        if r.type == .numbered { r.numberOfOccurrences = Int.random(in: 1...40, using: &g) }
        if r.type == .endDate { r.endDate = start.adding(days: Int.random(in: 0...1500, using: &g)).isoString }
        return GraphPatternedRecurrence(pattern: p, range: r)
    }

    @Test func randomPatternsAgreeWithTheirRRules() throws {
        var g = Generator(state: 20_261_127)
        let through = LocalDate(year: 2031, month: 12, day: 31)
        for round in 0..<400 {
            let recurrence = Self.randomRecurrence(&g)
            var event = GraphEvent()
            event.iCalUId = "random-\(round)"
            event.type = .seriesMaster
            let day = recurrence.range.startDate!
            event.start = GraphDateTimeZone(dateTime: "\(day)T18:15:00.0000000", timeZone: "Eastern Standard Time")
            event.end = GraphDateTimeZone(dateTime: "\(day)T19:00:00.0000000", timeZone: "Eastern Standard Time")
            event.recurrence = recurrence
            let graphDates = recurrence.occurrenceDates(through: through, limit: 5000)
            let shown = try GraphSamples.json(recurrence)
            let calendar = try event.iCalendar(at: GraphSamples.now)
            let values = GraphSamples.startValues(calendar)
            #expect(values.map(\.local.date) == graphDates, "\(shown)")
            guard let first = graphDates.first else { continue }
            let write = try calendar.graphEventWrite()
            var expected = recurrence.normalized
            expected.range.startDate = first.isoString
            #expect(write.master.recurrence?.normalized == expected, "\(shown)")
        }
    }
}
