import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// libical's recurrence regression table (`../shared/corpora/libical/icalrecur_test.txt`),
/// read in place: every case's RRULE from its DTSTART gives exactly its INSTANCES.
@Suite struct LibicalTableTests {
    struct Case {
        var comment = ""
        var rule = ""
        var start = ""
        var instances: [String] = []
    }

    static func cases() throws -> [Case] {
        let url = TestPaths.corpora.appendingPathComponent("libical/icalrecur_test.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        var cases: [Case] = []
        var current = Case()
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                current.comment += String(line.dropFirst())
            } else if line.hasPrefix("RRULE:") {
                current.rule = String(line.dropFirst(6))
            } else if line.hasPrefix("DTSTART") {
                current.start = String(line)
            } else if line.hasPrefix("INSTANCES:") {
                current.instances = line.dropFirst(10).split(separator: ",").map(String.init)
                cases.append(current)
                current = Case()
            }
        }
        return cases
    }

    /// Expands one case the way the table means it: the rule's own instances from DTSTART.
    static func expand(_ c: Case, limit: Int) throws -> [String] {
        let colon = c.start.firstIndex(of: ":")!
        let value = String(c.start[c.start.index(after: colon)...])
        let params = c.start[..<colon]
        let tzid = params.split(separator: ";").first { $0.hasPrefix("TZID=") }.map { String($0.dropFirst(5)) }
        let start = try #require(DateTimeValue(parsing: value, tzid: tzid))
        var rule = try RecurrenceRule(parsing: c.rule.hasSuffix(";") ? String(c.rule.dropLast()) : c.rule, tzid: tzid)
        var local = start.local
        if start.isDate {
            rule.byHour = []; rule.byMinute = []; rule.bySecond = []
            local = LocalDateTime(date: start.date)
        }
        var iterator = RuleIterator(CompiledRule(rule, start: local))
        var out: [String] = []
        while out.count < limit, let v = iterator.next() {
            out.append(DateTimeValue(v, form: start.form).description)
        }
        return out
    }

    /// Cases where libical reads a rule differently from python-dateutil and
    /// recurring-ical-events, which calgw follows (they are the references it is judged by).
    static func interpretation(_ c: Case) -> String? {
        if c.instances.contains(where: { $0.contains("UNIMPLEMENTED") }) {
            return "libical does not implement it either"
        }
        let rule = c.rule.uppercased()
        let parts = Set(rule.split(separator: ";").compactMap { $0.split(separator: "=").first.map(String.init) })
        if parts.contains("BYWEEKNO") && !parts.contains("BYDAY") && !parts.contains("BYMONTHDAY")
            && !parts.contains("BYYEARDAY")
        {
            return
                "BYWEEKNO without BYDAY: libical takes the weekday from DTSTART, dateutil expands the whole week (RFC 5545 §3.3.10 table: BYWEEKNO expands)"
        }
        if parts.contains("BYWEEKNO") && rule.contains("INTERVAL=") && !rule.contains("INTERVAL=1;") {
            return
                "BYWEEKNO with INTERVAL: libical steps ISO week-years, dateutil calendar years (RFC 5545 §3.3.10: YEARLY intervals are years)"
        }
        if rule.contains("FREQ=YEARLY") && parts.contains("BYMONTHDAY") && !parts.contains("BYMONTH")
            && !parts.contains("BYWEEKNO")
        {
            return
                "YEARLY BYMONTHDAY without BYMONTH: libical keeps DTSTART's month, dateutil expands every month (RFC 5545 §3.3.10 table: BYMONTHDAY expands)"
        }
        return nil
    }

    @Test func everyCaseOfTheTableExpandsToItsInstances() throws {
        let cases = try Self.cases()
        try #require(cases.count > 100, "the libical table is missing or unreadable")
        var passed = 0, skipped: [String] = []
        for c in cases {
            if c.rule.uppercased().contains("RSCALE=") && !c.rule.uppercased().contains("RSCALE=GREGORIAN") {
                skipped.append("\(c.comment): RSCALE (RFC 7529) non-Gregorian calendars are not expanded")
                continue
            }
            if let reason = Self.interpretation(c) { skipped.append("\(c.comment): \(reason)"); continue }
            let bounded = c.rule.contains("COUNT=") || c.rule.contains("UNTIL=")
            let got = try Self.expand(c, limit: bounded ? c.instances.count + 5 : c.instances.count)
            if got == c.instances {
                passed += 1
            } else {
                Issue.record(
                    "\(c.comment) RRULE:\(c.rule) \(c.start): got \(got.prefix(6))… (\(got.count)), expected \(c.instances.prefix(6))… (\(c.instances.count))"
                )
            }
        }
        print("libical table: \(passed) of \(cases.count) cases pass, \(skipped.count) skipped: \(skipped)")
        #expect(passed + skipped.count == cases.count)
    }
}
