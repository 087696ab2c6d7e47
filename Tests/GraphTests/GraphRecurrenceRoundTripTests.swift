import Foundation
import ICalendar
import Testing

@testable import Graph

/// Every pattern type with every range type: Graph JSON → iCalendar → Graph JSON gives the same
/// recurrence, and calgw's expansion of the iCalendar gives the dates Graph's pattern gives.
@Suite struct GraphRecurrenceRoundTripTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var startDate: String
        var pattern: String
        var testDescription: String { name }
    }

    static let patterns: [Case] = [
        Case(name: "daily every 3rd day", startDate: "2026-01-05", pattern: #"{"type":"daily","interval":3}"#),
        Case(
            name: "weekly, Mon Wed Fri every 2nd week", startDate: "2026-01-05",
            pattern:
                #"{"type":"weekly","interval":2,"daysOfWeek":["monday","wednesday","friday"],"firstDayOfWeek":"sunday"}"#
        ),
        Case(
            name: "weekly, Sun Tue every 2nd week from Monday", startDate: "2026-01-06",
            pattern: #"{"type":"weekly","interval":2,"daysOfWeek":["sunday","tuesday"],"firstDayOfWeek":"monday"}"#),
        Case(
            name: "absoluteMonthly 15th", startDate: "2026-01-15",
            pattern: #"{"type":"absoluteMonthly","interval":1,"dayOfMonth":15}"#),
        Case(
            name: "absoluteMonthly 31st (the last day of shorter months)", startDate: "2026-01-31",
            pattern: #"{"type":"absoluteMonthly","interval":1,"dayOfMonth":31}"#),
        Case(
            name: "relativeMonthly first Thursday every 2nd month", startDate: "2026-01-01",
            pattern: #"{"type":"relativeMonthly","interval":2,"daysOfWeek":["thursday"],"index":"first"}"#),
        Case(
            name: "relativeMonthly last working day", startDate: "2026-01-30",
            pattern:
                #"{"type":"relativeMonthly","interval":1,"daysOfWeek":["monday","tuesday","wednesday","thursday","friday"],"index":"last"}"#
        ),
        Case(
            name: "relativeMonthly second weekend day", startDate: "2026-01-04",
            pattern: #"{"type":"relativeMonthly","interval":1,"daysOfWeek":["saturday","sunday"],"index":"second"}"#),
        Case(
            name: "relativeMonthly last day of the month", startDate: "2026-01-31",
            pattern:
                #"{"type":"relativeMonthly","interval":1,"daysOfWeek":["sunday","monday","tuesday","wednesday","thursday","friday","saturday"],"index":"last"}"#
        ),
        Case(
            name: "absoluteYearly July 4th", startDate: "2026-07-04",
            pattern: #"{"type":"absoluteYearly","interval":1,"month":7,"dayOfMonth":4}"#),
        Case(
            name: "absoluteYearly February 29th", startDate: "2028-02-29",
            pattern: #"{"type":"absoluteYearly","interval":1,"month":2,"dayOfMonth":29}"#),
        Case(
            name: "relativeYearly fourth Thursday of November", startDate: "2026-11-26",
            pattern: #"{"type":"relativeYearly","interval":1,"month":11,"daysOfWeek":["thursday"],"index":"fourth"}"#),
        Case(
            name: "relativeYearly last Sunday of March every 2nd year", startDate: "2026-03-29",
            pattern: #"{"type":"relativeYearly","interval":2,"month":3,"daysOfWeek":["sunday"],"index":"last"}"#),
    ]

    static let ranges = ["noEnd", "numbered", "endDate"]

    static func range(_ type: String, start: String) -> String {
        switch type {
        case "numbered":
            #"{"type":"numbered","startDate":"\#(start)","numberOfOccurrences":7,"recurrenceTimeZone":"W. Europe Standard Time"}"#
        case "endDate":
            #"{"type":"endDate","startDate":"\#(start)","endDate":"2029-06-30","recurrenceTimeZone":"W. Europe Standard Time"}"#
        default:
            #"{"type":"noEnd","startDate":"\#(start)","recurrenceTimeZone":"W. Europe Standard Time"}"#
        }
    }

    static func master(_ c: Case, range: String, allDay: Bool = false) throws -> GraphEvent {
        let times =
            allDay
            ? #""isAllDay":true,"start":{"dateTime":"\#(c.startDate)T00:00:00.0000000","timeZone":"UTC"},"end":{"dateTime":"\#(LocalDate(iso: c.startDate)!.adding(days: 1).isoString)T00:00:00.0000000","timeZone":"UTC"}"#
            : #""start":{"dateTime":"\#(c.startDate)T09:00:00.0000000","timeZone":"W. Europe Standard Time"},"end":{"dateTime":"\#(c.startDate)T09:45:00.0000000","timeZone":"W. Europe Standard Time"}"#
        let json = #"""
            {"id":"M","iCalUId":"series@graph","type":"seriesMaster","subject":"\#(c.name)",\#(times),
             "recurrence":{"pattern":\#(c.pattern),"range":\#(Self.range(range, start: c.startDate))}}
            """#
        return try GraphSamples.decode(GraphEvent.self, json)
    }

    @Test(arguments: patterns, ranges)
    func graphToICalendarToGraphKeepsTheRecurrence(_ c: Case, _ range: String) throws {
        let event = try Self.master(c, range: range)
        let calendar = try event.iCalendar(at: GraphSamples.now)
        let write = try calendar.graphEventWrite()
        #expect(write.master.recurrence?.normalized == event.recurrence?.normalized)
        #expect(write.master.start?.local == event.start?.local)
        #expect(write.master.start?.timeZone == event.start?.timeZone)
        #expect(write.master.end?.local == event.end?.local)
        #expect(write.uid == "series@graph")
    }

    @Test(arguments: patterns, ranges)
    func theRRuleGivesTheDatesGraphsPatternGives(_ c: Case, _ range: String) throws {
        let event = try Self.master(c, range: range)
        let calendar = try event.iCalendar(at: GraphSamples.now)
        let graphDates = event.recurrence!.occurrenceDates(
            through: LocalDate(year: 2031, month: 12, day: 31), limit: 5000)
        let values = GraphSamples.startValues(calendar)
        #expect(values.map(\.local.date) == graphDates)
        #expect(
            values.allSatisfy {
                $0.local.time == LocalTime(hour: 9, minute: 0, second: 0) && $0.tzid == "Europe/Berlin"
            })
        #expect(!graphDates.isEmpty)
    }

    @Test(arguments: ranges)
    func allDaySeriesRoundTrip(_ range: String) throws {
        let c = Self.patterns[1]
        let event = try Self.master(c, range: range, allDay: true)
        let calendar = try event.iCalendar(at: GraphSamples.now)
        let master = calendar.components(named: "VEVENT")[0]
        #expect(master["DTSTART"]?.value == "20260105")
        if range == "endDate" { #expect(master["RRULE"]?.value.contains("UNTIL=20290630;") == true) }
        let write = try calendar.graphEventWrite()
        var expected = event.recurrence!.normalized
        expected.range.recurrenceTimeZone = nil
        #expect(write.master.recurrence?.normalized == expected)
        #expect(write.master.isAllDay == true)
        #expect(write.master.start == GraphDateTimeZone(dateTime: "2026-01-05T00:00:00", timeZone: "UTC"))
        #expect(write.master.end == GraphDateTimeZone(dateTime: "2026-01-06T00:00:00", timeZone: "UTC"))
        let graphDates = event.recurrence!.occurrenceDates(
            through: LocalDate(year: 2031, month: 12, day: 31), limit: 5000)
        #expect(GraphSamples.startValues(calendar).map(\.local.date) == graphDates)
    }
}

@Suite struct GraphRecurrenceWriteFieldsTests {
    /// Graph answers every pattern field (`"month": 0`, an `endDate` of `0001-01-01` on a
    /// numbered range) but refuses a write that sets one the type does not use.
    @Test func aRecurrenceAsGraphAnswersItIsWrittenBackWithOnlyTheFieldsItsTypeUses() throws {
        let master = try GraphSamples.decode(GraphEvent.self, GraphSamples.seriesMaster)
        let write = try master.iCalendar(at: GraphSamples.now).graphEventWrite()
        let json = try GraphSamples.json(write.master.recurrence)
        #expect(
            json
                == #"{"pattern":{"daysOfWeek":["thursday"],"firstDayOfWeek":"monday","interval":1,"type":"weekly"},"#
                + #""range":{"numberOfOccurrences":10,"recurrenceTimeZone":"W. Europe Standard Time","#
                + #""startDate":"2025-05-01","type":"numbered"}}"#)
        #expect(write.master.recurrence == master.recurrence?.normalized)
        #expect(write.cancelled.map(\.date.isoString) == ["2025-05-29"])
        #expect(write.cancelled.map(\.originalStart) == ["2025-05-29T09:30:00Z"])
        #expect(write.overrides.map(\.occurrence.originalStart) == ["2025-05-22T09:30:00Z"])
        #expect(write.overrides.first?.patch.subject == "Weekly sync (moved)")
        #expect(
            write.overrides.first?.patch.start
                == GraphDateTimeZone(dateTime: "2025-05-21T14:00:00", timeZone: "W. Europe Standard Time"))
    }

    @Test func theCalendarsCalgwMakesPassItsLint() throws {
        for json in [GraphSamples.seriesMaster, GraphSamples.created] {
            let calendar = try GraphSamples.decode(GraphEvent.self, json).iCalendar(at: GraphSamples.now)
            let problems = Linter().lint(ICalendarSerializer().data([calendar]))
            #expect(problems.isEmpty, "\(problems)")
        }
    }
}
