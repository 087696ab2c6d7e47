import Foundation
import Testing
import CalgwTestSupport

/// `calgw alarms`: what it prints, in JSON and for people, from a folder or a pair.
@Suite(.timeLimit(.minutes(10))) struct AlarmsCommandTests {
    static func calendar(_ components: String) -> Data {
        Data(
            ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + components + "END:VCALENDAR\r\n")
                .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    /// A weekly meeting in Berlin with an override carrying its own alarm and an EXDATE; a
    /// single event with an alarm acknowledged, a snooze, an EMAIL alarm and one after its end;
    /// a file without alarms: every instant once, sorted by trigger, with its keys.
    @Test func jsonListsEveryAlarmInstantSortedByTrigger() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.calendar(
            """
            BEGIN:VEVENT
            UID:weekly
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=Europe/Berlin:20260302T100000
            DTEND;TZID=Europe/Berlin:20260302T110000
            RRULE:FREQ=WEEKLY;COUNT=4
            EXDATE;TZID=Europe/Berlin:20260316T100000
            SUMMARY:Standup
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:Standup soon
            TRIGGER:-PT15M
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:weekly
            DTSTAMP:20260101T000000Z
            RECURRENCE-ID;TZID=Europe/Berlin:20260309T100000
            DTSTART;TZID=Europe/Berlin:20260309T140000
            DTEND;TZID=Europe/Berlin:20260309T150000
            SUMMARY:Standup (moved)
            BEGIN:VALARM
            ACTION:AUDIO
            TRIGGER:-PT1H
            END:VALARM
            END:VEVENT

            """
        ).write(to: folder.file("weekly.ics"))
        try Self.calendar(
            """
            BEGIN:VEVENT
            UID:single
            DTSTAMP:20260101T000000Z
            DTSTART:20260305T090000Z
            DURATION:PT1H
            SUMMARY:Dentist
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:dismissed
            TRIGGER:-PT30M
            ACKNOWLEDGED:20260305T083100Z
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:snoozed
            TRIGGER;VALUE=DATE-TIME:20260305T084500Z
            END:VALARM
            BEGIN:VALARM
            ACTION:EMAIL
            DESCRIPTION:mail
            SUMMARY:subject
            ATTENDEE:mailto:me@example.org
            TRIGGER:-P1D
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:after
            TRIGGER;RELATED=END:PT5M
            END:VALARM
            END:VEVENT

            """
        ).write(to: folder.file("single.ics"))
        try TestEvent.data(uid: "plain", summary: "no alarm", start: "20260305T120000Z").write(
            to: folder.file("plain.ics"))
        let result = try await CalgwBinary.run([
            "alarms", "--local", folder.url.path, "--from", "2026-03-01T00:00Z", "--to", "2026-04-01T00:00Z", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let records = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(
            records.allSatisfy {
                Set($0.keys) == ["uid", "recurrenceId", "trigger", "start", "due", "summary", "action", "description"]
            })
        let rows = records.map { r in
            ["uid", "recurrenceId", "trigger", "start", "summary", "action", "description"].map {
                r[$0] as? String ?? "null"
            }
        }
        let berlin = "+01:00", utc = "+00:00"
        #expect(
            rows == [
                [
                    "weekly", "2026-03-02T10:00:00\(berlin)", "2026-03-02T09:45:00\(berlin)",
                    "2026-03-02T10:00:00\(berlin)",
                    "Standup", "DISPLAY", "Standup soon",
                ],
                [
                    "single", "null", "2026-03-04T09:00:00\(utc)", "2026-03-05T09:00:00\(utc)", "Dentist", "EMAIL",
                    "mail",
                ],
                [
                    "single", "null", "2026-03-05T08:45:00\(utc)", "2026-03-05T09:00:00\(utc)", "Dentist", "DISPLAY",
                    "snoozed",
                ],
                [
                    "single", "null", "2026-03-05T10:05:00\(utc)", "2026-03-05T09:00:00\(utc)", "Dentist", "DISPLAY",
                    "after",
                ],
                [
                    "weekly", "2026-03-09T10:00:00\(berlin)", "2026-03-09T13:00:00\(berlin)",
                    "2026-03-09T14:00:00\(berlin)",
                    "Standup (moved)", "AUDIO", "null",
                ],
                [
                    "weekly", "2026-03-23T10:00:00\(berlin)", "2026-03-23T09:45:00\(berlin)",
                    "2026-03-23T10:00:00\(berlin)",
                    "Standup", "DISPLAY", "Standup soon",
                ],
            ], "\(rows)")
    }

    /// The table for people, the pair's files read as `list` reads them, the default window
    /// (the next 24 hours), and the errors: a broken file is named and the rest listed (exit
    /// 1); an empty window is a usage error.
    @Test func aPairsAlarmsForPeopleAndTheDefaultWindow() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let now = Int64(Date().timeIntervalSince1970)
        func utc(_ t: Int64) -> String {
            let f = DateFormatter()
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return f.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
        }
        for (uid, start) in [("soon", now + 7200), ("later", now + 3 * 86_400)] {
            try Self.calendar(
                """
                BEGIN:VEVENT
                UID:\(uid)
                DTSTAMP:20260101T000000Z
                DTSTART:\(utc(start))
                SUMMARY:Event \(uid)
                BEGIN:VALARM
                ACTION:DISPLAY
                TRIGGER:-PT1H
                END:VALARM
                END:VEVENT

                """
            ).write(to: vdir.appendingPathComponent("\(uid).ics"))
        }
        try Data(
            """
            [pair.one]
            local = "\(vdir.path)"
            remote = "file://\(folder.file("remote").path)"
            journal = "\(folder.file("one.sqlite").path)"
            """.utf8
        ).write(to: folder.file("config.toml"))
        let config = folder.file("config.toml").path
        let json = try await CalgwBinary.run(["alarms", "--config", config, "--json"])
        #expect(json.status == 0, "\(json.stderrText)")
        let records = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(records.map { $0["uid"] as? String } == ["soon"])
        let table = try await CalgwBinary.run(["alarms", "--config", config, "--pair", "one", "--tz", "UTC"])
        #expect(table.status == 0, "\(table.stderrText)")
        let lines = table.stdoutText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("display  Event soon  starts "), "\(table.stdoutText)")

        try Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nBEGIN:VALARM\r\n".utf8).write(
            to: vdir.appendingPathComponent("broken.ics"))
        let broken = try await CalgwBinary.run(["alarms", "--config", config, "--json"])
        #expect(broken.status == 1)
        #expect(broken.stderrText.contains("broken.ics"), "\(broken.stderrText)")
        #expect(((try? JSONSerialization.jsonObject(with: broken.stdout)) as? [[String: Any]])?.count == 1)
        let empty = try await CalgwBinary.run([
            "alarms", "--config", config, "--from", "2026-03-02", "--to", "2026-03-01",
        ])
        #expect(empty.status == 2, "\(empty.stderrText)")
    }
}

extension AlarmsCommandTests {
    /// A task's alarm is shown against its due time, called due: the table says `due 17:00`,
    /// the JSON has `due` and no `start` for a task without one.
    @Test func aTasksDueTimeIsCalledDue() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.calendar(
            """
            BEGIN:VTODO
            UID:tax
            DTSTAMP:20260301T000000Z
            SUMMARY:Submit tax form
            DUE:20260310T170000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:tax
            TRIGGER;RELATED=END:-PT1H
            END:VALARM
            END:VTODO

            """
        ).write(to: folder.file("tax.ics"))
        let window = ["--from", "2026-03-01T00:00Z", "--to", "2026-04-01T00:00Z", "--tz", "UTC"]
        let table = try await CalgwBinary.run(["alarms", "--local", folder.url.path] + window)
        #expect(table.status == 0, "\(table.stderrText)")
        #expect(table.stdoutText.contains("Submit tax form  due 17:00"), "\(table.stdoutText)")
        #expect(!table.stdoutText.contains("starts"), "\(table.stdoutText)")
        let json = try await CalgwBinary.run(["alarms", "--local", folder.url.path, "--json"] + window)
        let records = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(records.count == 1)
        #expect(records.first?["due"] as? String == "2026-03-10T17:00:00+00:00", "\(records)")
        #expect(records.first?["start"] is NSNull, "\(records)")
    }

    /// A summary with an emoji (two UTF-16 units, one character) is shown whole, and the column
    /// after it starts in one place.
    @Test func noSummaryIsCutShort() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (i, summary) in ["Party 🎉", "Tea"].enumerated() {
            try Self.calendar(
                """
                BEGIN:VEVENT
                UID:e\(i)
                DTSTAMP:20260101T000000Z
                DTSTART:2026030\(i + 1)T100000Z
                DURATION:PT1H
                SUMMARY:\(summary)
                BEGIN:VALARM
                ACTION:DISPLAY
                DESCRIPTION:x
                TRIGGER:-PT15M
                END:VALARM
                END:VEVENT

                """
            ).write(to: folder.file("e\(i).ics"))
        }
        let window = ["--from", "2026-03-01T00:00Z", "--to", "2026-04-01T00:00Z", "--tz", "UTC"]
        let table = try await CalgwBinary.run(["alarms", "--local", folder.url.path] + window)
        let lines = table.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].contains("Party 🎉  starts"), "\(table.stdoutText)")
        #expect(
            Set(lines.map { $0.utf16.count - ($0.range(of: "starts")?.lowerBound.utf16Offset(in: $0) ?? 0) }).count == 1
        )
    }
}
