import Foundation
import Testing
import CalgwTestSupport

@Suite(.timeLimit(.minutes(10))) struct ExpandCommandTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//calgw//tests//EN\r
        BEGIN:VEVENT\r
        UID:dst@calgw.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20260328T023000\r
        DURATION:PT1H\r
        RRULE:FREQ=DAILY;COUNT=3\r
        SUMMARY:Night job\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly@calgw.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20260302T100000\r
        DTEND;TZID=Europe/Berlin:20260302T110000\r
        RRULE:FREQ=WEEKLY;BYDAY=MO\r
        EXDATE;TZID=Europe/Berlin:20260309T100000\r
        SUMMARY:Standup\r
        LOCATION:Room 1\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly@calgw.test\r
        DTSTAMP:20260101T000000Z\r
        RECURRENCE-ID;TZID=Europe/Berlin:20260316T100000\r
        DTSTART;TZID=Europe/Berlin:20260317T150000\r
        DTEND;TZID=Europe/Berlin:20260317T160000\r
        SUMMARY:Standup (moved)\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    struct Record: Decodable {
        var uid: String
        var recurrenceId: String?
        var start: String
        var end: String
        var allDay: Bool
        var timeZone: String?
        var summary: String?
        var location: String?
    }

    func file() throws -> (TemporaryFolder, URL) {
        let folder = try TemporaryFolder()
        let url = folder.file("cal.ics")
        try Data(Self.calendar.utf8).write(to: url)
        return (folder, url)
    }

    @Test func jsonFollowsTheCLIContract() async throws {
        let (folder, url) = try file()
        defer { folder.remove() }
        let result = try await CalgwBinary.run([
            "expand", url.path, "--from", "2026-03-01", "--to", "2026-04-01", "--tz", "Europe/Berlin", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let records = try JSONDecoder().decode([Record].self, from: result.stdout)
        #expect(
            records.map(\.start) == [
                "2026-03-02T10:00:00+01:00", "2026-03-17T15:00:00+01:00", "2026-03-23T10:00:00+01:00",
                "2026-03-28T02:30:00+01:00", "2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00",
                "2026-03-30T10:00:00+02:00",
            ])
        let moved = try #require(records.first { $0.summary == "Standup (moved)" })
        #expect(moved.recurrenceId == "2026-03-16T10:00:00+01:00")
        #expect(moved.timeZone == "Europe/Berlin")
        #expect(records.first?.location == "Room 1")
        // Every key is present, null when empty.
        let raw = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(
            Set(raw[0].keys) == [
                "uid", "recurrenceId", "start", "end", "allDay", "timeZone", "summary", "location", "description",
                "rrule", "status", "sequence", "lastModified", "attendees", "alarms", "href",
            ])
    }

    /// An RRULE no reader can take is said on stderr, with the UID and why; the series is
    /// listed without it, and the other events of the file as they are.
    @Test func anUnreadableRuleIsAWarningNamingTheEvent() async throws {
        let (folder, url) = try file()
        defer { folder.remove() }
        let broken = Self.calendar.replacingOccurrences(
            of: "RRULE:FREQ=DAILY;COUNT=3", with: "RRULE:FREQ=DAILY;INTERVAL=0")
        try Data(broken.utf8).write(to: url)
        let result = try await CalgwBinary.run([
            "expand", url.path, "--from", "2026-03-01", "--to", "2026-04-01", "--tz", "Europe/Berlin", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(
            result.stderrText.contains("warning: \(url.path): dst@calgw.test: invalid RRULE: INTERVAL=0"),
            "\(result.stderrText)")
        #expect(result.stderrText.contains("(RRULE:FREQ=DAILY;INTERVAL=0)"), "\(result.stderrText)")
        let records = try JSONDecoder().decode([Record].self, from: result.stdout)
        #expect(records.filter { $0.summary == "Night job" }.map(\.start) == ["2026-03-28T02:30:00+01:00"])
        #expect(records.filter { $0.summary?.hasPrefix("Standup") == true }.count == 4)
        let quiet = try await CalgwBinary.run(["expand", url.path, "--from", "2026-03-01", "--to", "2026-04-01", "-q"])
        #expect(quiet.status == 0 && quiet.stderrText.isEmpty, "\(quiet.stderrText)")
    }

    @Test func theTableShowsDateTimeSummaryAndLocation() async throws {
        let (folder, url) = try file()
        defer { folder.remove() }
        let result = try await CalgwBinary.run([
            "expand", url.path, "--from", "2026-03-02", "--to", "2026-03-03", "--tz", "Europe/Berlin",
        ])
        #expect(result.status == 0)
        #expect(result.stdoutText == "2026-03-02  10:00–11:00  Standup  Room 1\n")
    }

    @Test func theWindowIsHalfOpenAndOverlapping() async throws {
        let (folder, url) = try file()
        defer { folder.remove() }
        // 10:30 is inside the 10:00–11:00 occurrence; 11:00 is its end (excluded).
        let inside = try await CalgwBinary.run([
            "expand", url.path, "--from", "2026-03-02T10:30+01:00", "--to", "2026-03-02T10:45:00Z", "--json",
        ])
        #expect(try JSONDecoder().decode([Record].self, from: inside.stdout).count == 1)
        let after = try await CalgwBinary.run([
            "expand", url.path, "--from", "2026-03-02T11:00", "--to", "2026-03-02T12:00", "--tz", "Europe/Berlin",
            "--json",
        ])
        #expect(try JSONDecoder().decode([Record].self, from: after.stdout).isEmpty)
    }

    /// Issue 23: an hourly series across New York's spring-forward night. Its 02:30 instance
    /// does not exist and is read as 03:30 EDT (RFC 5545 §3.3.5), the instant of the next
    /// instance too, which the recurrence set holds once (§3.8.5.3).
    static let gapCalendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//calgw//tests//EN\r
        BEGIN:VEVENT\r
        UID:gap@calgw.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=America/New_York:20270313T233000\r
        DTEND;TZID=America/New_York:20270314T000000\r
        RRULE:FREQ=HOURLY;COUNT=6\r
        SUMMARY:Gap\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func occurrencesAcrossADSTGapEndAfterTheyStartAndNeverShareAStart() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("gap.ics")
        try Data(Self.gapCalendar.utf8).write(to: url)
        let json = try await CalgwBinary.run([
            "expand", url.path, "--from", "2027-03-13", "--to", "2027-03-16", "--tz", "America/New_York", "--json",
        ])
        #expect(json.status == 0, "\(json.stderrText)")
        let records = try JSONDecoder().decode([Record].self, from: json.stdout)
        let format = ISO8601DateFormatter()
        let spans = try records.map { r in
            (try #require(format.date(from: r.start), "\(r.start)"), try #require(format.date(from: r.end), "\(r.end)"))
        }
        #expect(!spans.isEmpty)
        for (start, end) in spans { #expect(end >= start, "\(start)–\(end)") }
        #expect(Set(spans.map(\.0)).count == spans.count, "\(records.map(\.start))")
        // The table for people agrees: one row per occurrence, no start (date and time) twice.
        let table = try await CalgwBinary.run([
            "expand", url.path, "--from", "2027-03-13", "--to", "2027-03-16", "--tz", "America/New_York",
        ])
        let rows = table.stdoutText.split(separator: "\n")
        #expect(rows.count == records.count)
        let starts = rows.map { $0.split(separator: "–").first ?? $0 }
        #expect(Set(starts).count == rows.count, "\(table.stdoutText)")
    }

    @Test func badDatesAndZonesAreUsageErrors() async throws {
        let (folder, url) = try file()
        defer { folder.remove() }
        let badDate = try await CalgwBinary.run(["expand", url.path, "--from", "March", "--to", "2026-04-01"])
        #expect(badDate.status == 2)
        #expect(badDate.stderrText.contains("--from: 'March' is not a date"))
        let badZone = try await CalgwBinary.run([
            "expand", url.path, "--from", "2026-03-01", "--to", "2026-04-01", "--tz", "Mars/Olympus",
        ])
        #expect(badZone.status == 2)
        let reversed = try await CalgwBinary.run(["expand", url.path, "--from", "2026-04-01", "--to", "2026-03-01"])
        #expect(reversed.status == 2)
    }

    /// Issue 47: a calendar that names its zone in X-WR-TIMEZONE (as Google Calendar and Apple
    /// Calendar export it) has its floating times read in that zone, whatever --tz says; its
    /// UTC times stay UTC. The file is not changed.
    @Test func floatingTimesOfACalendarNamingItsZoneAreReadInIt() async throws {
        let fixture = TestPaths.fixtures.appendingPathComponent("readings/x-wr-timezone.ics")
        let before = try Data(contentsOf: fixture)
        let result = try await CalgwBinary.run([
            "expand", fixture.path, "--from", "2026-03-01", "--to", "2026-04-01", "--tz", "Europe/Berlin", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let records = try JSONDecoder().decode([Record].self, from: result.stdout)
        let standup = records.filter { $0.uid == "standup@calgw.test" }
        #expect(
            standup.map(\.start) == [
                "2026-03-02T09:00:00-05:00", "2026-03-09T12:00:00-04:00", "2026-03-20T14:00:00-04:00",
                "2026-03-23T09:00:00-04:00",
            ])
        #expect(standup.allSatisfy { $0.timeZone == "America/New_York" })
        #expect(standup[1].recurrenceId == "2026-03-09T09:00:00-04:00")
        let call = try #require(records.first { $0.uid == "call@calgw.test" })
        #expect(call.start == "2026-03-04T15:00:00+00:00" && call.timeZone == "UTC")
        #expect(records.first { $0.uid == "holiday@calgw.test" }?.start == "2026-03-10")
        #expect(try Data(contentsOf: fixture) == before)
    }

    /// Issue 47: of several versions of one event, the newest is expanded, with its EXDATE and
    /// RDATE; the older version's change of an instance that the newest excludes is gone.
    @Test func theNewestVersionOfAnEventIsExpanded() async throws {
        let fixture = TestPaths.fixtures.appendingPathComponent("readings/several-versions.ics")
        let result = try await CalgwBinary.run([
            "expand", fixture.path, "--from", "2026-01-01", "--to", "2026-03-01", "--tz", "Europe/Berlin", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let planning = try JSONDecoder().decode([Record].self, from: result.stdout).filter {
            $0.uid == "planning@calgw.test"
        }
        #expect(
            planning.map(\.start) == [
                "2026-01-05T10:00:00+01:00", "2026-01-12T15:00:00+01:00", "2026-01-26T10:00:00+01:00",
                "2026-02-02T10:00:00+01:00", "2026-02-09T10:00:00+01:00", "2026-02-18T10:00:00+01:00",
            ])
        #expect(
            planning.map(\.summary) == ["Planning", "Planning (moved)", "Planning", "Planning", "Planning", "Planning"])
    }

    /// A misspelled END (`END:VTOOD` closing a VTODO) is read past, as other readers do: the
    /// events of the file are listed, a warning names the line on stderr, and the exit status
    /// is 0. A file broken past that (an END missing inside) is still an error, exit 1; `lint`
    /// still fails the misspelled one.
    @Test func aMisspelledEndIsAWarningAndTheRestIsListed() async throws {
        let fixture = TestPaths.fixtures.appendingPathComponent("readings/misspelled-end.ics")
        let result = try await CalgwBinary.run([
            "expand", fixture.path, "--from", "2026-01-01", "--to", "2026-02-01", "--tz", "UTC", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(
            result.stderrText.contains(
                "warning: \(fixture.path): 21: END:VTOOD closes BEGIN:VTODO of line 11 (read as its END; "),
            "\(result.stderrText)")
        let records = try JSONDecoder().decode([Record].self, from: result.stdout)
        #expect(
            records.map(\.uid) == ["choir@calgw.test", "dentist@calgw.test"]
                + Array(repeating: "choir@calgw.test", count: 3))
        let table = try await CalgwBinary.run([
            "expand", fixture.path, "--from", "2026-01-08", "--to", "2026-01-09", "--tz", "UTC",
        ])
        #expect(table.status == 0 && table.stdoutText == "2026-01-08  14:00–15:00  Dentist\n", "\(table.stdoutText)")
        #expect(try await CalgwBinary.run(["lint", "--errors-only", fixture.path]).status == 1)

        let (folder, url) = try file()
        defer { folder.remove() }
        let missing = Self.calendar.replacingOccurrences(of: "SUMMARY:Night job\r\n", with: "BEGIN:VALARM\r\n")
        try Data(missing.utf8).write(to: url)
        let refused = try await CalgwBinary.run(["expand", url.path, "--from", "2026-03-01", "--to", "2026-04-01"])
        #expect(refused.status == 1, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("error: \(url.path): 11: END:VEVENT closes BEGIN:VALARM of line 10"))
    }
}
