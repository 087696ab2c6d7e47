import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// Every row of DESIGN.md's span-edit table × DTSTART in UTC, in a zone with a DST change
/// inside the series, floating and all-day × COUNT, UNTIL and unbounded × with and without an
/// override and an EXDATE, at an occurrence before and after them. recurring-ical-events
/// expands each result; the occurrences must be the original ones with exactly the edited
/// ones changed. All cases go to python in two batches to keep the test fast. khal lists every
/// result too (`SpanEditMatrixTests+Khal.swift`), in one run over all cases.
@Suite(.timeLimit(.minutes(20))) struct SpanEditMatrixTests {
    /// Where the references stop expanding: the series begin in March 2026 and every edit is
    /// within their first eight weeks, so an unbounded series' 95 occurrences to here show
    /// what an edit did to the rest (to 2040 they were 720, most of the suite's time).
    static let windowEnd = "2028-01-01"

    enum StartForm: String, CaseIterable { case utc, zoned, floating, allDay }
    enum Bound: String, CaseIterable { case count, until, unbounded }
    enum Operation: String, CaseIterable { case editThis, deleteThis, editFuture, deleteFuture, editSeries }

    struct Series {
        var form: StartForm
        var bound: Bound
        var withExtras: Bool
        var uid: String { "\(form)-\(bound)-\(withExtras ? "x" : "plain")@calgw.test" }

        /// The k-th occurrence's original start (weekly from Monday 2026-03-02), in DTSTART's form.
        func slot(_ k: Int) -> DateTimeValue {
            let date = LocalDate(year: 2026, month: 3, day: 2).adding(days: 7 * (k - 1))
            switch form {
            case .utc:
                return DateTimeValue(
                    LocalDateTime(date: date, time: LocalTime(hour: 9, minute: 0, second: 0)), form: .utc)
            case .zoned:
                return DateTimeValue(
                    LocalDateTime(date: date, time: LocalTime(hour: 10, minute: 0, second: 0)),
                    form: .zoned(tzid: "Europe/Berlin"))
            case .floating:
                return DateTimeValue(
                    LocalDateTime(date: date, time: LocalTime(hour: 10, minute: 0, second: 0)), form: .floating)
            case .allDay: return DateTimeValue(date: date)
            }
        }

        func line(_ name: String, _ value: DateTimeValue) -> String {
            String(
                decoding: ICalendarSerializer().serialize(Component(name: "X", properties: [.dateTime(name, value)])),
                as: UTF8.self
            )
            .split(separator: "\r\n").dropFirst().first.map(String.init) ?? ""
        }

        var text: String {
            var rule = "FREQ=WEEKLY"
            switch bound {
            case .count: rule += ";COUNT=8"
            case .until:
                let last = slot(8)
                let until: String
                switch form {
                case .zoned: until = "20260420T080000Z"  // 10:00 CEST
                default: until = last.description
                }
                rule += ";UNTIL=\(until)"
            case .unbounded: break
            }
            let end =
                form == .allDay
                ? DateTimeValue(date: slot(1).date.adding(days: 1))
                : DateTimeValue(slot(1).local.adding(seconds: 3600), form: slot(1).form)
            var lines = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
                "DTSTAMP:20260101T000000Z", line("DTSTART", slot(1)), line("DTEND", end), "RRULE:\(rule)",
                "SUMMARY:Series",
            ]
            if withExtras { lines.append(line("EXDATE", slot(5))) }
            lines.append("END:VEVENT")
            if withExtras {
                let overrideEnd =
                    form == .allDay
                    ? DateTimeValue(date: slot(3).date.adding(days: 1))
                    : DateTimeValue(slot(3).local.adding(seconds: 3600), form: slot(3).form)
                lines += [
                    "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", line("RECURRENCE-ID", slot(3)),
                    line("DTSTART", slot(3)), line("DTEND", overrideEnd), "SUMMARY:Override", "END:VEVENT",
                ]
            }
            lines.append("END:VCALENDAR")
            return lines.joined(separator: "\r\n") + "\r\n"
        }
    }

    struct Case {
        var series: Series
        var operation: Operation
        var k: Int
        var name: String { "\(series.uid) \(operation) at occurrence \(k)" }
        var newUID: String { "new-" + series.uid }
    }

    @Test func everyRowOfTheTableOnEveryKindOfSeries() async throws {
        let series = StartForm.allCases.flatMap { form in
            Bound.allCases.flatMap { bound in [false, true].map { Series(form: form, bound: bound, withExtras: $0) } }
        }
        // python-dateutil lists each series' instances.
        let instanceRequests = series.map { s in
            Oracle.Request(
                kind: "instances", dtstart: s.slot(1).description, tzid: s.slot(1).tzid,
                rrule: String(s.text.split(separator: "\r\n").first { $0.hasPrefix("RRULE:") }!.dropFirst(6)))
        }
        let instanceLists = try await ProcessRunner.python(Oracle.script, input: instanceRequests, as: [[String]].self)

        var cases: [Case] = []
        var written: [[String]] = []
        for (s, starts) in zip(series, instanceLists) {
            let calendar = try #require(try ICalendarParser().parse(s.text).calendar)
            let editor = try SeriesEditor(calendar: calendar, uid: s.uid, now: SpanEditTests.now)
            let instances = OracleInstances(starts: starts, form: s.slot(1).form)
            // calgw's own expander answers the editor's questions as dateutil does.
            let engine = try #require(SeriesExpansion(calendar: calendar, uid: s.uid))
            for k in 1...10 {
                let slot = s.slot(k)
                #expect(engine.isInstance(slot) == instances.isInstance(slot), "\(s.uid): is \(slot) an instance?")
                #expect(
                    engine.ruleInstanceCount(before: slot) == instances.ruleInstanceCount(before: slot),
                    "\(s.uid): instances before \(slot)")
                let offSlot =
                    slot.isDate
                    ? DateTimeValue(date: slot.date.adding(days: 1))
                    : DateTimeValue(slot.local.adding(seconds: 1800), form: slot.form)
                #expect(!engine.isInstance(offSlot), "\(s.uid): \(offSlot) taken for an instance")
            }
            let changes = EventChanges(summary: "Changed")
            for operation in Operation.allCases {
                for k in operation == .editSeries ? [1] : [2, 6] {
                    let result: SpanEditResult
                    switch operation {
                    case .editThis:
                        result = try editor.editOccurrence(
                            s.slot(k), span: .thisEvent, changes: changes, instances: instances, newUID: "")
                    case .deleteThis:
                        result = try editor.deleteOccurrence(s.slot(k), span: .thisEvent, instances: instances)
                    case .editFuture:
                        result = try editor.editOccurrence(
                            s.slot(k), span: .futureEvents, changes: changes,
                            instances: instances, newUID: "new-" + s.uid)
                    case .deleteFuture:
                        result = try editor.deleteOccurrence(s.slot(k), span: .futureEvents, instances: instances)
                    case .editSeries: result = SpanEditResult(resource: try editor.editSeries(changes), newSeries: nil)
                    }
                    let c = Case(series: s, operation: operation, k: k)
                    try checkWrittenRule(result, case: c)
                    cases.append(c)
                    written.append(
                        [result.resource, result.newSeries].compactMap { $0 }.map { ICalendarSerializer().string($0) })
                }
            }
        }

        // recurring-ical-events expands the originals and every result.
        let requests =
            series.map {
                Oracle.Request(
                    kind: "occurrences", calendars: [$0.text], from: "2020-01-01", to: SpanEditMatrixTests.windowEnd)
            }
            + written.map {
                Oracle.Request(
                    kind: "occurrences", calendars: $0, from: "2020-01-01", to: SpanEditMatrixTests.windowEnd)
            }
        let answers = try await ProcessRunner.python(Oracle.script, input: requests, as: [[OracleOccurrence]].self)
        let originals = Dictionary(uniqueKeysWithValues: zip(series.map(\.uid), answers.prefix(series.count)))
        for (c, after) in zip(cases, answers.dropFirst(series.count)) {
            let before = try #require(originals[c.series.uid])
            #expect(before.count >= 7, "\(c.series.uid): the reference expanded only \(before.count) occurrences")
            check(before: before, after: after, case: c)
        }
        // zip above stops at the shorter list: a reference that answered fewer requests than it
        // was asked would leave cases unchecked.
        #expect(
            answers.count == series.count + cases.count,
            "the reference answered \(answers.count) of \(series.count + cases.count) requests")

        // khal, pointed at the same files, lists the same occurrences but for its known departures.
        let departed = try await checkKhal(
            cases: cases, written: written, reference: Array(answers.dropFirst(series.count)))
        // Each departure listed is seen: one khal no longer makes would hide nothing but stay as a
        // licence to differ.
        for (departure, seen) in zip(Self.khalDepartures, departed) {
            #expect(seen > 0, "khal no longer departs from the reference as listed: \(departure.section)")
        }

        // The same files through real servers: what Radicale and Xandikos serve back expands to
        // the same occurrences.
        for name in TestServers.selected where ["radicale", "xandikos"].contains(name) {
            let server = try TestServers.shared(name)
            let collection = server.newCollectionURL(prefix: "spans")
            try await server.makeCalendar(collection)
            let fetched = try await ProcessRunner.python(
                Oracle.script,
                input: [
                    Oracle.Request(
                        kind: "roundtrip", calendars: written.flatMap { $0 }, collection: collection.absoluteString,
                        username: server.username, password: server.password)
                ], as: [[String]].self)[0]
            #expect(fetched.count == written.reduce(0) { $0 + $1.count }, "\(name) did not serve every file back")
            var rest = fetched[...]
            let regrouped = written.map { group in
                let part = Array(rest.prefix(group.count)); rest = rest.dropFirst(group.count); return part
            }
            let served = try await ProcessRunner.python(
                Oracle.script,
                input: regrouped.map {
                    Oracle.Request(
                        kind: "occurrences", calendars: $0, from: "2020-01-01", to: SpanEditMatrixTests.windowEnd)
                }, as: [[OracleOccurrence]].self)
            #expect(served.count == cases.count)
            for (c, (mine, theirs)) in zip(cases, zip(answers.dropFirst(series.count), served)) {
                #expect(mine == theirs, "\(name) serves \(c.name) differently")
            }
        }
    }

    /// The occurrences after the edit are the original ones with exactly the edited ones changed.
    func check(before: [OracleOccurrence], after: [OracleOccurrence], case c: Case) {
        let splitDay = c.series.slot(c.k).date.isoString
        let day = { (o: OracleOccurrence) in String(o.start.prefix(10)) }
        switch c.operation {
        case .editThis:
            #expect(after.map(\.start) == before.map(\.start), "\(c.name): occurrences moved")
            for (b, a) in zip(before, after) {
                let expected = day(b) == splitDay ? "Changed" : b.summary
                #expect(
                    a.summary == expected && a.uid == b.uid,
                    "\(c.name): \(a.start) is \(a.summary), expected \(expected)")
            }
        case .deleteThis:
            #expect(after == before.filter { day($0) != splitDay }, "\(c.name)")
        case .deleteFuture:
            #expect(after == before.filter { day($0) < splitDay }, "\(c.name)")
        case .editFuture, .editSeries:
            #expect(after.map(\.start) == before.map(\.start), "\(c.name): occurrences moved, were lost or were added")
            for (b, a) in zip(before, after) {
                let edited = c.operation == .editSeries || day(b) >= splitDay
                let expected = edited && b.summary != "Override" ? "Changed" : b.summary
                let uid = c.operation == .editFuture && edited ? c.newUID : c.series.uid
                #expect(
                    a.summary == expected && a.uid == uid,
                    "\(c.name): \(a.start) is \(a.uid) \(a.summary), expected \(uid) \(expected)")
            }
        }
    }

    /// A split bounds the old rule as the issue says: COUNT rewritten, else UNTIL in UTC for
    /// zoned and UTC series, a DATE for all-day ones, floating for floating ones.
    func checkWrittenRule(_ result: SpanEditResult, case c: Case) throws {
        guard c.operation == .editFuture || c.operation == .deleteFuture, let old = result.resource else { return }
        let property = try #require(
            old.components.first { $0.name == "VEVENT" && $0["RECURRENCE-ID"] == nil }?["RRULE"])
        let rule = try property.recurrenceRule()
        if c.series.bound == .count {
            #expect(rule.count == c.k - 1, "\(c.name): old COUNT \(String(describing: rule.count))")
            if let new = result.newSeries,
                let p = new.components.first(where: { $0["RECURRENCE-ID"] == nil && $0.name == "VEVENT" })?["RRULE"]
            {
                #expect(try p.recurrenceRule().count == 8 - (c.k - 1), "\(c.name): new COUNT")
            }
        } else {
            let form = try #require(rule.until?.form, "\(c.name): no UNTIL")
            let expected: DateTimeValue.Form =
                switch c.series.form {
                case .utc, .zoned: .utc
                case .floating: .floating
                case .allDay: .date
                }
            #expect(form == expected, "\(c.name): UNTIL form \(form)")
        }
        #expect(
            !old.components.contains { $0["RECURRENCE-ID"]?[parameter: "RANGE"] != nil }, "RANGE=THISANDFUTURE written")
    }
}
