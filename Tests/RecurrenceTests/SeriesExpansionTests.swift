import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// `SeriesExpansion` answers span edits' questions the way python-dateutil lists the instances.
@Suite struct SeriesExpansionTests {
    @Test func instanceQuestionsAgreeWithDateutilOnGeneratedRules() async throws {
        var generator = RuleGenerator(seed: 0xA11CE)
        var cases: [(rule: RecurrenceRule, start: LocalDateTime, tzid: String)] = []
        while cases.count < 400 {
            let c = generator.next()
            guard let tzid = c.tzid, c.rule.frequency >= .daily,
                RuleOracleTests.knownDeviation(c.rule, start: c.start) == nil
            else { continue }
            var rule = c.rule
            if rule.count == nil && rule.until == nil { rule.count = 30 }
            cases.append((rule, c.start, tzid))
        }
        let request = RuleOracleTests.Request(
            cases: cases.map {
                RuleOracleTests.Case(
                    dtstart: $0.start.description, rrule: $0.rule.description, limit: 40,
                    before: $0.start.adding(seconds: 86_400 * 366 * 40).description, tzid: $0.tzid, seconds: 2,
                    bounded: false)
            })
        let answers = try await ProcessRunner.python(
            RuleOracleTests.script, input: request, as: [RuleOracleTests.Answer].self)
        try #require(answers.count == cases.count)
        var checked = 0, withInstances = 0
        var unanswered: [String] = []
        for (c, answer) in zip(cases, answers) {
            guard case .instances(let expected) = answer else {
                // dateutil timed out (a rare match under COUNT makes it walk far) or raised (its
                // own IndexError on some BYSETPOS and ordinal BYDAY rules): counted apart.
                unanswered.append("DTSTART;TZID=\(c.tzid):\(c.start) RRULE:\(c.rule): \(answer)")
                continue
            }
            guard !expected.isEmpty else { continue }
            withInstances += 1
            let form: DateTimeValue.Form = c.tzid == "UTC" ? .utc : .zoned(tzid: c.tzid)
            var master = Component(name: "VEVENT")
            master.append(Property(name: "UID", value: "x"))
            master.append(Property.dateTime("DTSTART", DateTimeValue(c.start, form: form)))
            master.append(Property(name: "RRULE", value: c.rule.description))
            let index = SeriesExpansion(series: Series(components: [master], resolver: TimeZoneResolver()))
            let instants = expected.map { DateTimeValue(parsing: $0)! }
            for k in [0, instants.count / 2, instants.count - 1] {
                let rid = instants[k]
                #expect(
                    index.isInstance(rid), "DTSTART;TZID=\(c.tzid):\(c.start) RRULE:\(c.rule): \(rid) is an instance")
                #expect(
                    index.ruleInstanceCount(before: rid) == k,
                    "DTSTART;TZID=\(c.tzid):\(c.start) RRULE:\(c.rule): \(k) instances before \(rid)")
                let off = DateTimeValue(rid.local.adding(seconds: 1), form: .utc)
                #expect(!index.isInstance(off) || expected.contains(off.description))
                checked += 1
            }
        }
        print("SeriesExpansion: \(checked) recurrence ids of \(withInstances) rules checked against dateutil")
        // Three questions for every rule that has instances; most rules have some, and dateutil
        // answers nearly all (its time-outs and errors apart, at most 1 in 40).
        #expect(checked == 3 * withInstances)
        #expect(withInstances * 100 >= cases.count * 80, "\(withInstances) of \(cases.count) rules have instances")
        // Its time-outs follow the machine's load, not the rules: only its errors are bounded.
        let raised = unanswered.filter { $0.contains(": error(") }
        #expect(raised.count * 40 <= cases.count, "dateutil raised for \(raised.count) rules: \(raised.prefix(5))")
    }
}
