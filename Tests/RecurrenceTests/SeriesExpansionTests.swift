import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// `SeriesExpansion` answers span edits' questions the way python-dateutil lists the instances.
@Suite struct SeriesExpansionTests {
    @Test func instanceQuestionsAgreeWithDateutilOnGeneratedRules() throws {
        var generator = RuleGenerator(seed: 0xA11CE)
        var cases: [(rule: RecurrenceRule, start: LocalDateTime, tzid: String)] = []
        while cases.count < 400 {
            let c = generator.next()
            guard let tzid = c.tzid, c.rule.frequency >= .daily, RuleOracleTests.knownDeviation(c.rule, start: c.start) == nil else { continue }
            var rule = c.rule
            if rule.count == nil && rule.until == nil { rule.count = 30 }
            cases.append((rule, c.start, tzid))
        }
        let request = RuleOracleTests.Request(cases: cases.map {
            RuleOracleTests.Case(dtstart: $0.start.description, rrule: $0.rule.description, limit: 40,
                                 before: $0.start.adding(seconds: 86_400 * 366 * 40).description, tzid: $0.tzid, seconds: 0.2)
        })
        let answers = try ProcessRunner.python(RuleOracleTests.script, input: request, as: [[String]?].self)
        var checked = 0
        for (c, expected) in zip(cases, answers) {
            guard let expected, !expected.isEmpty else { continue }
            let form: DateTimeValue.Form = c.tzid == "UTC" ? .utc : .zoned(tzid: c.tzid)
            var master = Component(name: "VEVENT")
            master.append(Property(name: "UID", value: "x"))
            master.append(Property.dateTime("DTSTART", DateTimeValue(c.start, form: form)))
            master.append(Property(name: "RRULE", value: c.rule.description))
            let index = SeriesExpansion(series: Series(components: [master], resolver: TimeZoneResolver()))
            let instants = expected.map { DateTimeValue(parsing: $0)! }
            for k in [0, instants.count / 2, instants.count - 1] {
                let rid = instants[k]
                #expect(index.isInstance(rid), "DTSTART;TZID=\(c.tzid):\(c.start) RRULE:\(c.rule): \(rid) is an instance")
                #expect(index.ruleInstanceCount(before: rid) == k, "DTSTART;TZID=\(c.tzid):\(c.start) RRULE:\(c.rule): \(k) instances before \(rid)")
                let off = DateTimeValue(rid.local.adding(seconds: 1), form: .utc)
                #expect(!index.isInstance(off) || expected.contains(off.description))
                checked += 1
            }
        }
        print("SeriesExpansion: \(checked) recurrence ids checked against dateutil")
        #expect(checked > 600)
    }
}
