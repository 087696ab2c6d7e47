import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// Span edits checked against an outside reference: after every edit, recurring-ical-events
/// (python) expands the resulting resources, and the occurrences must be the original ones
/// with exactly the edited ones changed. Instance lists come from python-dateutil.
@Suite struct SpanEditTests {
    static let now = DateTimeValue(LocalDateTime(year: 2026, month: 11, day: 23, hour: 9), form: .utc)

    /// A weekly Monday-10:00 Berlin series of 10 with the 3rd occurrence moved to 11:00 and
    /// the 5th excluded.
    static let weekly = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//calgw//tests//EN
        BEGIN:VEVENT
        UID:weekly@calgw.test
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260105T100000
        DTEND;TZID=Europe/Berlin:20260105T110000
        RRULE:FREQ=WEEKLY;COUNT=10
        EXDATE;TZID=Europe/Berlin:20260202T100000
        SUMMARY:Standup
        SEQUENCE:2
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT10M
        DESCRIPTION:Standup
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly@calgw.test
        DTSTAMP:20260101T000000Z
        RECURRENCE-ID;TZID=Europe/Berlin:20260119T100000
        DTSTART;TZID=Europe/Berlin:20260119T110000
        DTEND;TZID=Europe/Berlin:20260119T120000
        SUMMARY:Standup (moved)
        END:VEVENT
        END:VCALENDAR
        """

    /// A daily all-day series until the end of March, and a daily UTC series across DST.
    static let allDay = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//calgw//tests//EN
        BEGIN:VEVENT
        UID:allday@calgw.test
        DTSTAMP:20260101T000000Z
        DTSTART;VALUE=DATE:20260320
        DTEND;VALUE=DATE:20260321
        RRULE:FREQ=DAILY;UNTIL=20260331
        SUMMARY:Holiday
        END:VEVENT
        END:VCALENDAR
        """

    static let acrossDST = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//calgw//tests//EN
        BEGIN:VEVENT
        UID:dst@calgw.test
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260323T023000
        DURATION:PT30M
        RRULE:FREQ=DAILY;UNTIL=20260405T000000Z
        SUMMARY:Night job
        END:VEVENT
        END:VCALENDAR
        """

    // MARK: this event

    @Test func editThisOccurrenceMakesAnOverrideFromTheMaster() async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        let rid = zoned(2026, 1, 26, 10)
        let result = try edit.editor.editOccurrence(
            rid, span: .thisEvent, changes: EventChanges(summary: "Retro"),
            instances: edit.instances, newUID: "unused")
        let resource = try #require(result.resource)
        #expect(result.newSeries == nil)
        let override = try #require(resource.components.first { $0["RECURRENCE-ID"]?.dateTime == rid })
        #expect(override["SUMMARY"]?.text == "Retro")
        #expect(override.components(named: "VALARM").count == 1, "the override lost the master's alarm")
        #expect(override["RRULE"] == nil && override["EXDATE"] == nil)
        #expect(override["SEQUENCE"]?.integer == 3)

        let before = try await Oracle.occurrences([Self.weekly])
        let after = try await Oracle.occurrences([edit.text(resource)])
        #expect(after.count == before.count)
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(changed.count == 1)
        #expect(changed.first?.1.summary == "Retro" && changed.first?.1.start == changed.first?.0.start)
    }

    @Test func editingAnOverriddenOccurrenceEditsTheOverride() async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        // Named by its original slot in UTC: matched by instant.
        let rid = DateTimeValue(LocalDateTime(year: 2026, month: 1, day: 19, hour: 9), form: .utc)
        let result = try edit.editor.editOccurrence(
            rid, span: .thisEvent, changes: EventChanges(location: "Room 2"),
            instances: edit.instances, newUID: "unused")
        let resource = try #require(result.resource)
        let overrides = resource.components.filter { $0["RECURRENCE-ID"] != nil }
        #expect(overrides.count == 1)
        #expect(overrides.first?["LOCATION"]?.text == "Room 2")
        #expect(overrides.first?["DTSTART"]?.dateTime == zoned(2026, 1, 19, 11), "the moved start was lost")
    }

    @Test func deleteThisOccurrenceAddsAnExdateAndDropsItsOverride() async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        let result = try edit.editor.deleteOccurrence(
            zoned(2026, 1, 19, 10), span: .thisEvent, instances: edit.instances)
        let resource = try #require(result.resource)
        #expect(!resource.components.contains { $0["RECURRENCE-ID"] != nil })
        let before = try await Oracle.occurrences([Self.weekly])
        let after = try await Oracle.occurrences([edit.text(resource)])
        #expect(after.count == before.count - 1)
        #expect(!after.contains { $0.summary == "Standup (moved)" })
    }

    @Test func anOccurrenceThatDoesNotExistIsRefused() async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        #expect(throws: SpanEditError.noSuchOccurrence(uid: "weekly@calgw.test", recurrenceID: "20260106T100000")) {
            try edit.editor.editOccurrence(
                zoned(2026, 1, 6, 10), span: .thisEvent, changes: EventChanges(summary: "x"),
                instances: edit.instances, newUID: "unused")
        }
    }

    // MARK: this and future

    @Test(arguments: [2, 6, 9])
    func splittingKeepsEveryOccurrenceAndChangesOnlyTheFutureOnes(week: Int) async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        let rid = zoned(2026, 1, 5 + 7 * (week - 1), 10)
        let result = try edit.editor.editOccurrence(
            rid, span: .futureEvents, changes: EventChanges(summary: "Sync"),
            instances: edit.instances, newUID: "weekly-2@calgw.test")
        let old = try #require(result.resource)
        let new = try #require(result.newSeries)
        let newMaster = try #require(new.components.first { $0.name == "VEVENT" && $0["RECURRENCE-ID"] == nil })
        #expect(newMaster["RELATED-TO"]?.value == "weekly@calgw.test")
        #expect(newMaster["DTSTART"]?.dateTime == rid)
        #expect(!old.components.contains { c in c["RECURRENCE-ID"]?.dateTime.map { $0.local >= rid.local } ?? false })

        let before = try await Oracle.occurrences([Self.weekly])
        let after = try await Oracle.occurrences([edit.text(old), edit.text(new)])
        #expect(after.map(\.start) == before.map(\.start), "a split must neither lose nor add occurrences")
        for (b, a) in zip(before, after) {
            if a.start >= iso(rid) || (b.summary == "Standup (moved)" && week <= 3) {
                #expect(a.uid == "weekly-2@calgw.test", "\(a.start) should belong to the new series")
            } else {
                #expect(
                    a.uid == "weekly@calgw.test" && a.summary == b.summary,
                    "\(a.start) changed though it is before the split")
            }
        }
        let newMasters = after.filter { $0.uid == "weekly-2@calgw.test" && $0.summary == "Sync" }
        #expect(!newMasters.isEmpty)
    }

    @Test func splittingAtTheFirstOccurrenceEditsTheWholeSeries() async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        let result = try edit.editor.editOccurrence(
            zoned(2026, 1, 5, 10), span: .futureEvents,
            changes: EventChanges(summary: "All"), instances: edit.instances, newUID: "x")
        #expect(result.newSeries == nil)
        let after = try await Oracle.occurrences([edit.text(try #require(result.resource))])
        #expect(
            after.filter { $0.summary == "All" }.count == after.count - 1,
            "every occurrence but the override takes the change")
    }

    @Test func movingTheFutureOccurrencesAnHourLater() async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        let rid = zoned(2026, 2, 9, 10)
        let result = try edit.editor.editOccurrence(
            rid, span: .futureEvents,
            changes: EventChanges(start: zoned(2026, 2, 9, 11)),
            instances: edit.instances, newUID: "weekly-3@calgw.test")
        let after = try await Oracle.occurrences([
            edit.text(try #require(result.resource)), edit.text(try #require(result.newSeries)),
        ])
        let before = try await Oracle.occurrences([Self.weekly])
        #expect(after.count == before.count)
        let future = after.filter { $0.uid == "weekly-3@calgw.test" }
        #expect(future.count == 5)
        #expect(future.allSatisfy { $0.start.contains("T11:00:00") }, "\(future.map(\.start))")
    }

    @Test func deletingFromAnOccurrenceOnEndsTheSeriesBeforeIt() async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        let rid = zoned(2026, 1, 12, 10)
        let result = try edit.editor.deleteOccurrence(rid, span: .futureEvents, instances: edit.instances)
        let after = try await Oracle.occurrences([edit.text(try #require(result.resource))])
        #expect(after.map(\.start) == ["2026-01-05T10:00:00+01:00"])

        let all = try edit.editor.deleteOccurrence(
            zoned(2026, 1, 5, 10), span: .futureEvents, instances: edit.instances)
        #expect(all.resource == nil, "deleting from the first occurrence deletes the series")
    }

    @Test func allDayAndZonedUntilSplitsAcrossDST() async throws {
        for (text, uid, rid) in [
            (Self.allDay, "allday@calgw.test", DateTimeValue(date: LocalDate(year: 2026, month: 3, day: 25))),
            (Self.acrossDST, "dst@calgw.test", zoned(2026, 3, 30, 2, 30)),
        ] {
            let edit = try await Fixture(text, uid: uid)
            let result = try edit.editor.editOccurrence(
                rid, span: .futureEvents, changes: EventChanges(summary: "Later"),
                instances: edit.instances, newUID: "new-\(uid)")
            let old = try #require(result.resource)
            let ruleProperty = try #require(old.components.first { $0.name == "VEVENT" }?["RRULE"])
            let rule = try ruleProperty.recurrenceRule()
            #expect(rule.until?.isDate == rid.isDate, "UNTIL must be a DATE for all-day series and UTC otherwise")
            let before = try await Oracle.occurrences([text])
            let after = try await Oracle.occurrences([edit.text(old), edit.text(try #require(result.newSeries))])
            #expect(after.map(\.start) == before.map(\.start))
            #expect(after.filter { $0.summary == "Later" }.count == before.filter { $0.start >= iso(rid) }.count)
        }
    }

    // MARK: whole series

    @Test func movingTheSeriesMovesItsExdatesAndOverrides() async throws {
        let edit = try await Fixture(Self.weekly, uid: "weekly@calgw.test")
        let moved = try edit.editor.editSeries(EventChanges(start: zoned(2026, 1, 6, 9)))
        let master = try #require(moved.components.first { $0.name == "VEVENT" && $0["RECURRENCE-ID"] == nil })
        #expect(master["EXDATE"]?.dateTime == zoned(2026, 2, 3, 9))
        #expect(master["SEQUENCE"]?.integer == 3)
        let override = try #require(moved.components.first { $0["RECURRENCE-ID"] != nil })
        #expect(override["RECURRENCE-ID"]?.dateTime == zoned(2026, 1, 20, 9))
        let after = try await Oracle.occurrences([edit.text(moved)])
        let before = try await Oracle.occurrences([Self.weekly])
        #expect(after.count == before.count, "an orphaned override or a resurrected EXDATE changed the count")
        #expect(after.filter { $0.summary == "Standup (moved)" }.count == 1)
    }

    // MARK: Helpers

    func zoned(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0) -> DateTimeValue {
        let date = LocalDate(daysSinceEpoch: LocalDate(year: y, month: m, day: 1).daysSinceEpoch + d - 1)
        return DateTimeValue(
            LocalDateTime(date: date, time: LocalTime(hour: h, minute: min, second: 0)),
            form: .zoned(tzid: "Europe/Berlin"))
    }

    /// The ISO form recurring-ical-events prints, up to the offset, for comparing starts.
    func iso(_ value: DateTimeValue) -> String {
        value.isDate ? value.date.isoString : value.local.isoString
    }
}

/// A parsed resource, its editor, and its instances from python-dateutil.
struct Fixture {
    let calendar: Component
    let editor: SeriesEditor
    let instances: OracleInstances

    init(_ text: String, uid: String) async throws {
        calendar = try #require(try ICalendarParser().parse(text).calendar)
        editor = try SeriesEditor(calendar: calendar, uid: uid, now: SpanEditTests.now)
        let master = try #require(calendar.components.first { $0.name == "VEVENT" && $0["RECURRENCE-ID"] == nil })
        let start = try #require(master["DTSTART"]?.dateTime)
        let starts = try await Oracle.instances(start: start, rule: try #require(master["RRULE"]?.value))
        instances = OracleInstances(starts: starts, form: start.form)
    }

    func text(_ resource: Component) -> String { ICalendarSerializer().string(resource) }
}

/// A series' instances as python-dateutil lists them.
struct OracleInstances: SeriesInstanceIndex {
    let starts: [String]
    let form: DateTimeValue.Form

    func isInstance(_ recurrenceID: DateTimeValue) -> Bool { starts.contains(recurrenceID.description) }
    func ruleInstanceCount(before recurrenceID: DateTimeValue) -> Int {
        starts.filter { $0 < recurrenceID.description }.count
    }
}

struct OracleOccurrence: Decodable, Equatable {
    var uid: String
    var start: String
    var end: String?
    var summary: String
}

enum Oracle {
    static let script = TestPaths.packageRoot.appendingPathComponent("Scripts/oracles/span_edits.py")

    struct Request: Encodable {
        var kind: String
        var dtstart: String? = nil
        var tzid: String? = nil
        var rrule: String? = nil
        var calendars: [String]? = nil
        var from: String? = nil
        var to: String? = nil
        var collection: String? = nil
        var username: String? = nil
        var password: String? = nil
    }

    static func instances(start: DateTimeValue, rule: String) async throws -> [String] {
        let answer = try await ProcessRunner.python(
            script, input: [Request(kind: "instances", dtstart: start.description, tzid: start.tzid, rrule: rule)],
            as: [[String]].self)
        return answer[0]
    }

    static func occurrences(_ calendars: [String]) async throws -> [OracleOccurrence] {
        let answer = try await ProcessRunner.python(
            script, input: [Request(kind: "occurrences", calendars: calendars, from: "2020-01-01", to: "2040-01-01")],
            as: [[OracleOccurrence]].self)
        return answer[0]
    }
}
