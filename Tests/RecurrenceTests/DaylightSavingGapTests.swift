import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// Series across DST gaps and overlaps, in IANA zones and in a zone a VTIMEZONE defines,
/// with DTEND and with DURATION, checked against `Scripts/oracles/dst_occurrences.py`.
///
/// The reference takes the instances' wall-clock times from python-dateutil's rrule (with the
/// zone's zoneinfo for IANA zones), reads each as RFC 5545 §3.3.5 says (in a gap with the
/// offset before it, in an overlap the first instant) by a search that only turns instants into
/// wall-clock times (and, for IANA zones, must agree with zoneinfo's fold=0), counts instances
/// at one instant once (§3.8.5.3; dateutil's rrule keeps both), and ends each one DTEND − DTSTART
/// (exact, between the first instance's instants) after its start, or DURATION's days later on
/// the wall clock plus its seconds as elapsed time (§3.3.6).
@Suite struct DaylightSavingGapTests {
    static let script = TestPaths.packageRoot.appendingPathComponent("Scripts/oracles/dst_occurrences.py")

    /// A zone no IANA name stands for: UTC+3, UTC+4:30 from the second Sunday of March 02:00
    /// to the first Sunday of November 02:00 (a 90-minute gap and overlap).
    static let harbourZone = "Custom Harbour Time"
    static let harbour = """
        BEGIN:VTIMEZONE\r
        TZID:Custom Harbour Time\r
        BEGIN:STANDARD\r
        DTSTART:19701101T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r
        TZOFFSETFROM:+0430\r
        TZOFFSETTO:+0300\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        DTSTART:19700308T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r
        TZOFFSETFROM:+0300\r
        TZOFFSETTO:+0430\r
        END:DAYLIGHT\r
        END:VTIMEZONE\r

        """

    struct Case: Encodable, CustomStringConvertible, Sendable {
        var dtstart: String
        var rrule: String
        var zone: String
        var vtimezone: String?
        var dtend: String?
        var days = 0
        var seconds = 0

        var description: String {
            "\(zone) \(dtstart) \(rrule) " + (dtend.map { "DTEND \($0)" } ?? "DURATION \(durationText)")
        }

        var durationText: String {
            var text = "P" + (days > 0 ? "\(days)D" : "")
            if seconds > 0 { text += "T\(seconds)S" }
            return text == "P" ? "PT0S" : text
        }

        /// The calendar calgw reads: one VEVENT, with the VTIMEZONE when the zone is defined there.
        var calendar: String {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\n" + (vtimezone ?? "")
            text += "BEGIN:VEVENT\r\nUID:dst@calgw.test\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:DST\r\n"
            text += "DTSTART;TZID=\(zone):\(dtstart)\r\n"
            if let dtend { text += "DTEND;TZID=\(zone):\(dtend)\r\n" } else { text += "DURATION:\(durationText)\r\n" }
            text += "RRULE:\(rrule)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            return text
        }

        static func end(_ zone: String, _ start: String, _ rule: String, _ end: String) -> Case {
            Case(dtstart: start, rrule: rule, zone: zone, vtimezone: zone == harbourZone ? harbour : nil, dtend: end)
        }

        static func duration(_ zone: String, _ start: String, _ rule: String, days: Int = 0, seconds: Int = 0) -> Case {
            Case(
                dtstart: start, rrule: rule, zone: zone, vtimezone: zone == harbourZone ? harbour : nil, days: days,
                seconds: seconds)
        }
    }

    static let cases: [Case] = [
        // New York: 02:00 → 03:00 on 2027-03-14, 02:00 → 01:00 on 2027-11-07.
        .end("America/New_York", "20270313T233000", "FREQ=HOURLY;COUNT=6", "20270314T000000"),
        .duration("America/New_York", "20270312T023000", "FREQ=DAILY;COUNT=4", seconds: 3600),
        .duration("America/New_York", "20270312T023000", "FREQ=DAILY;COUNT=4", days: 1),
        .end("America/New_York", "20270314T023000", "FREQ=DAILY;COUNT=3", "20270314T040000"),
        .end("America/New_York", "20271107T003000", "FREQ=HOURLY;COUNT=4", "20271107T013000"),
        .duration("America/New_York", "20271105T013000", "FREQ=DAILY;COUNT=4", days: 1),
        .end("America/New_York", "20271106T013000", "FREQ=DAILY;COUNT=3", "20271106T023000"),
        // Berlin: 02:00 → 03:00 on 2027-03-28, 03:00 → 02:00 on 2027-10-31.
        .end("Europe/Berlin", "20270328T003000", "FREQ=HOURLY;COUNT=5", "20270328T011500"),
        .duration("Europe/Berlin", "20270326T023000", "FREQ=DAILY;COUNT=4", days: 1),
        .duration("Europe/Berlin", "20270326T023000", "FREQ=DAILY;COUNT=4", seconds: 3600),
        .end("Europe/Berlin", "20271031T013000", "FREQ=HOURLY;COUNT=4", "20271031T030000"),
        .duration("Europe/Berlin", "20271029T023000", "FREQ=DAILY;COUNT=4", seconds: 3600),
        // Lord Howe: 30-minute shifts, 02:00 → 02:30 on 2027-10-03, 02:00 → 01:30 on 2027-04-04.
        .end("Australia/Lord_Howe", "20271003T013000", "FREQ=MINUTELY;INTERVAL=15;COUNT=8", "20271003T015000"),
        .duration("Australia/Lord_Howe", "20270404T010000", "FREQ=MINUTELY;INTERVAL=15;COUNT=6", seconds: 1200),
        .duration("Australia/Lord_Howe", "20271001T021500", "FREQ=DAILY;COUNT=4", days: 1),
        // Santiago: changes at midnight, 00:00 → 01:00 on 2027-09-05, 24:00 → 23:00 on 2027-04-03.
        .end("America/Santiago", "20270903T003000", "FREQ=DAILY;COUNT=4", "20270903T010000"),
        .duration("America/Santiago", "20270402T233000", "FREQ=DAILY;COUNT=3", days: 1),
        .duration("America/Santiago", "20270904T230000", "FREQ=HOURLY;COUNT=4", seconds: 3600),
        // Apia skipped 2011-12-30 whole (UTC−10 → UTC+14).
        .end("Pacific/Apia", "20111228T120000", "FREQ=DAILY;COUNT=5", "20111228T130000"),
        .duration("Pacific/Apia", "20111228T120000", "FREQ=DAILY;COUNT=5", days: 1),
        // A VTIMEZONE of the file: 02:00 → 03:30 on 2027-03-14, 02:00 → 00:30 on 2027-11-07.
        .end(harbourZone, "20270314T003000", "FREQ=HOURLY;COUNT=5", "20270314T013000"),
        .end(harbourZone, "20270314T000000", "FREQ=MINUTELY;INTERVAL=30;COUNT=9", "20270314T002000"),
        .duration(harbourZone, "20270312T023000", "FREQ=DAILY;COUNT=4", days: 1),
        .duration(harbourZone, "20271107T000000", "FREQ=HOURLY;COUNT=4", seconds: 3600),
        .end(harbourZone, "20271105T013000", "FREQ=DAILY;COUNT=4", "20271105T023000"),
    ]

    enum Answer: Decodable {
        case occurrences([[String]])
        case error(String)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let pairs = try? c.decode([[String]].self) { self = .occurrences(pairs); return }
            struct E: Decodable { var error: String }
            self = .error(try c.decode(E.self).error)
        }
    }

    static func parse(_ text: String) throws -> Component {
        try #require(try ICalendarParser().parse(Data(text.utf8)).components.first { $0.name == "VCALENDAR" })
    }

    static func utc(_ instant: Int64) -> String { LocalDateTime(secondsSinceEpoch: instant).description + "Z" }

    /// Every occurrence of the calendar (1990–2100) as [start, end] in UTC.
    static func ours(_ calendar: Component) -> [Occurrence] {
        let from = Int64(LocalDate(year: 1990, month: 1, day: 1).daysSinceEpoch) * 86_400
        let to = Int64(LocalDate(year: 2100, month: 1, day: 1).daysSinceEpoch) * 86_400
        return CalendarExpansion(calendar: calendar).occurrences(from: from, to: to)
    }

    @Test func expansionAgreesWithTheReference() async throws {
        let answers = try await ProcessRunner.python(Self.script, input: Self.cases, as: [Answer].self)
        try #require(answers.count == Self.cases.count)
        for (c, answer) in zip(Self.cases, answers) {
            guard case .occurrences(let expected) = answer else {
                Issue.record("\(c): the reference failed: \(answer)")
                continue
            }
            let got = Self.ours(try Self.parse(c.calendar)).map {
                [Self.utc($0.startInstant), Self.utc($0.endInstant)]
            }
            #expect(got == expected, "\(c)")
        }
    }

    @Test(arguments: cases)
    func occurrencesNeverEndBeforeTheyStartNorShareAStart(_ c: Case) throws {
        let occurrences = Self.ours(try Self.parse(c.calendar))
        #expect(!occurrences.isEmpty)
        for o in occurrences {
            #expect(o.endInstant >= o.startInstant, "\(c): \(Self.utc(o.startInstant))–\(Self.utc(o.endInstant))")
        }
        #expect(Set(occurrences.map(\.startInstant)).count == occurrences.count, "\(c)")
        // An occurrence's start value shows the clock time of its instant (not a time in a gap).
        let resolver = CalendarExpansion(calendar: try Self.parse(c.calendar)).resolver
        let zone = try #require(resolver.zone(for: c.zone))
        for o in occurrences {
            #expect(o.start.local == zone.local(atUTC: o.startInstant), "\(c): \(o.start)")
            #expect(o.end.local == zone.local(atUTC: o.endInstant), "\(c): \(o.end)")
        }
    }

    /// A daily 02:30 New York series whose 2027-03-14 instance is in the gap; EXDATE and
    /// RECURRENCE-ID name it by the gap time or by the clock time after the gap.
    static func dailyGap(inserting lines: String) throws -> Component {
        try parse(cases[1].calendar.replacingOccurrences(of: "RRULE:", with: lines + "RRULE:"))
    }

    @Test(arguments: ["20270314T023000", "20270314T033000"])
    func anEXDATERemovesTheGapInstanceByEitherName(_ name: String) throws {
        let all = Self.ours(try Self.dailyGap(inserting: ""))
        let zone = try #require(TimeZoneResolver().zone(for: "America/New_York"))
        let gap = zone.utc(forLocal: LocalDateTime(year: 2027, month: 3, day: 14, hour: 2, minute: 30))
        #expect(all.contains { $0.startInstant == gap })
        let left = Self.ours(try Self.dailyGap(inserting: "EXDATE;TZID=America/New_York:\(name)\r\n"))
        #expect(left.map(\.startInstant) == all.map(\.startInstant).filter { $0 != gap })
    }

    @Test(arguments: ["20270314T023000", "20270314T033000"])
    func anOverrideReplacesTheGapInstanceByEitherName(_ name: String) throws {
        let all = Self.ours(try Self.dailyGap(inserting: ""))
        let override =
            "BEGIN:VEVENT\r\nUID:dst@calgw.test\r\nDTSTAMP:20260101T000000Z\r\n"
            + "RECURRENCE-ID;TZID=America/New_York:\(name)\r\nDTSTART;TZID=America/New_York:20270314T100000\r\n"
            + "DURATION:PT1H\r\nSUMMARY:Moved\r\nEND:VEVENT\r\n"
        let text = Self.cases[1].calendar.replacingOccurrences(of: "END:VCALENDAR", with: override + "END:VCALENDAR")
        let got = Self.ours(try Self.parse(text))
        let zone = try #require(TimeZoneResolver().zone(for: "America/New_York"))
        let gap = zone.utc(forLocal: LocalDateTime(year: 2027, month: 3, day: 14, hour: 2, minute: 30))
        let moved = zone.utc(forLocal: LocalDateTime(year: 2027, month: 3, day: 14, hour: 10))
        #expect(got.count == all.count)
        #expect(!got.contains { $0.startInstant == gap })
        #expect(got.filter { $0.component["SUMMARY"]?.text == "Moved" }.map(\.startInstant) == [moved])
    }

    @Test func theIssueExampleCountsTheGapInstanceOnce() throws {
        // 23:30, 00:30, 01:30, 02:30 (→ 03:30 EDT), 03:30, 04:30: six generated, one instant twice.
        let occurrences = Self.ours(try Self.parse(Self.cases[0].calendar))
        #expect(occurrences.count == 5)
        #expect(occurrences.allSatisfy { $0.endInstant - $0.startInstant == 1800 })
    }
}
