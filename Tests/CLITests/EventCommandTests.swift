import Foundation
import Testing
import ICalendar
import CalgwTestSupport

/// `calgw event add/edit/delete --offline` through the built binary, on a vdir: what lands
/// in the files, and what a person is told when something is wrong.
@Suite(.timeLimit(.minutes(10))) struct EventCommandTests {
    /// A config with one pair whose vdir is a fresh folder; the server is never contacted.
    struct Setup {
        let folder: TemporaryFolder
        var vdir: URL { folder.file("vdir") }
        var config: URL { folder.file("config.toml") }

        init() throws {
            folder = try TemporaryFolder()
            try FileManager.default.createDirectory(at: folder.file("vdir"), withIntermediateDirectories: true)
            try """
            [pair.test]
            local = "\(folder.file("vdir").path)"
            remote = "http://127.0.0.1:9/cal/"
            journal = "\(folder.file("journal.sqlite").path)"
            """.write(to: folder.file("config.toml"), atomically: true, encoding: .utf8)
        }

        func calgw(_ arguments: [String], tz: String = "Europe/Berlin") async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(arguments + ["--config", config.path], environment: ["TZ": tz])
        }

        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }.sorted()
        }

        func event(_ uid: String) throws -> Component {
            let text = try String(contentsOf: vdir.appendingPathComponent(uid + ".ics"), encoding: .utf8)
            return try #require(try ICalendarParser().parse(text).calendar)
        }
    }

    @Test func addWritesOneFileNamedAfterTheUIDInTheSystemZone() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let r = try await s.calgw([
            "event", "add", "--summary", "Dentist", "--start", "2026-03-29T10:00", "--duration", "45m", "--offline",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        let uid = r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try s.files() == ["\(uid).ics"])
        let event = try #require(try s.event(uid).components.first { $0.name == "VEVENT" })
        #expect(event["UID"]?.text == uid)
        #expect(event["DTSTART"]?.tzid == "Europe/Berlin" && event["DTSTART"]?.value == "20260329T100000")
        #expect(event["DURATION"]?.value == "PT45M")
        #expect(event["SEQUENCE"]?.value == "0" && event["CREATED"] != nil && event["LAST-MODIFIED"] != nil)
        // Complete as RFC 5545 asks: the zone it names is defined in the file, and lint is silent.
        #expect(try s.event(uid).components.contains { $0.name == "VTIMEZONE" && $0["TZID"]?.value == "Europe/Berlin" })
        let lint = try await CalgwBinary.run(["lint", s.vdir.appendingPathComponent("\(uid).ics").path])
        #expect(
            lint.status == 0 && lint.stdoutText.isEmpty && lint.stderrText.isEmpty,
            "\(lint.stdoutText)\(lint.stderrText)")
    }

    /// New files take the umask's permissions, as any program's: a user who keeps files
    /// private (umask 077) gets private calendar files, others 0644.
    @Test func newFilesFollowTheUmask() async throws {
        for (umask, expected) in [("077", 0o600), ("022", 0o644)] {
            let s = try Setup()
            defer { s.folder.remove() }
            let r = try await ProcessRunner.run(
                "/bin/sh",
                [
                    "-c", "umask \(umask) && exec \"$0\" \"$@\"", CalgwBinary.url.path,
                    "event", "add", "--summary", "Private", "--start", "2026-03-29T10:00",
                    "--offline", "--config", s.config.path,
                ],
                environment: ["TZ": "Europe/Berlin", "NO_COLOR": "1"])
            #expect(r.status == 0, "\(r.stderrText)")
            let file = try #require(try s.files().first)
            let mode =
                try FileManager.default.attributesOfItem(atPath: s.vdir.appendingPathComponent(file).path)[
                    .posixPermissions] as? Int
            #expect(mode == expected, "umask \(umask): mode \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test func addAllDayWithAnInclusiveLastDay() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let r = try await s.calgw([
            "event", "add", "--summary", "Holiday", "--start", "2026-08-03", "--end", "2026-08-14", "--offline",
            "--json",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        struct Added: Decodable { var uid: String; var pushed: Bool }
        let added = try JSONDecoder().decode(Added.self, from: r.stdout)
        #expect(!added.pushed)
        let event = try #require(try s.event(added.uid).components.first { $0.name == "VEVENT" })
        #expect(event["DTSTART"]?.value == "20260803" && event["DTSTART"]?[parameter: "VALUE"] == "DATE")
        #expect(event["DTEND"]?.value == "20260815")
    }

    @Test func addRefusesBadInputWithUsageErrorsAndWritesNothing() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let cases: [([String], String)] = [
            (["--start", "2026-02-30T10:00"], "not a date"),
            (["--start", "2026-03-29T10:00", "--end", "2026-03-29T09:00"], "before it starts"),
            (["--start", "2026-03-29T10:00", "--rrule", "FREQ=SOMETIMES"], "--rrule"),
            (["--start", "2026-03-29T10:00", "--rrule", "FREQ=DAILY;UNTIL=20260401"], "UTC"),
            (["--start", "2026-03-29T10:00", "--tz", "Mars/Olympus"], "unknown time zone"),
            (["--start", "2026-03-29T10:00", "--duration", "soon"], "length of time"),
        ]
        for (extra, message) in cases {
            let r = try await s.calgw(["event", "add", "--summary", "x", "--offline"] + extra)
            #expect(r.status == 2, "\(extra): exit \(r.status) \(r.stderrText)")
            #expect(r.stderrText.contains(message), "\(extra): \(r.stderrText)")
        }
        #expect(try s.files().isEmpty)
    }

    @Test func addTakesAnInstantAndShowsItInTheZone() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let r = try await s.calgw([
            "event", "add", "--summary", "Call", "--start", "2026-07-01T08:00:00Z", "--tz", "America/New_York",
            "--offline",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        let event = try #require(
            try s.event(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)).components.first {
                $0.name == "VEVENT"
            })
        #expect(event["DTSTART"]?.tzid == "America/New_York" && event["DTSTART"]?.value == "20260701T040000")
    }

    /// A weekly Monday 09:30 Berlin series of 6 made with `event add`; returns its UID.
    func weeklySeries(_ s: Setup) async throws -> String {
        let r = try await s.calgw([
            "event", "add", "--summary", "Standup", "--start", "2026-03-23T09:30", "--duration", "15m",
            "--rrule", "FREQ=WEEKLY;COUNT=6", "--offline",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        return r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func editOneOccurrenceMakesAnOverrideAndTheFutureSplitsTheSeries() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let uid = try await weeklySeries(s)
        var r = try await s.calgw([
            "event", "edit", uid, "--occurrence", "2026-03-30T09:30", "--summary", "Planning", "--offline",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        var calendar = try s.event(uid)
        let override = try #require(calendar.components.first { $0["RECURRENCE-ID"] != nil })
        #expect(
            override["RECURRENCE-ID"]?.value == "20260330T093000" && override["RECURRENCE-ID"]?.tzid == "Europe/Berlin")
        #expect(override["SUMMARY"]?.text == "Planning")

        r = try await s.calgw([
            "event", "edit", uid, "--occurrence", "2026-04-13T09:30", "--span", "future",
            "--start", "2026-04-13T10:00", "--json", "--offline",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        struct Edited: Decodable { var change: String; var newSeries: String? }
        let edited = try JSONDecoder().decode(Edited.self, from: r.stdout)
        let newUID = try #require(edited.newSeries)
        calendar = try s.event(uid)
        #expect(
            calendar.components.first { $0.name == "VEVENT" && $0["RECURRENCE-ID"] == nil }?["RRULE"]?.value
                == "FREQ=WEEKLY;COUNT=3")
        let next = try #require(try s.event(newUID).components.first { $0.name == "VEVENT" })
        #expect(next["DTSTART"]?.value == "20260413T100000" && next["RRULE"]?.value == "FREQ=WEEKLY;COUNT=3")
        #expect(next["RELATED-TO"]?.text == uid)
        #expect(try s.files().count == 2)
    }

    @Test func anOccurrenceThatIsNotOneListsTheNearest() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let uid = try await weeklySeries(s)
        let before = try s.event(uid)
        let r = try await s.calgw(["event", "delete", uid, "--occurrence", "2026-03-31T09:30", "--offline"])
        #expect(r.status == 2)
        // The time as it was typed, not as the file writes it (20260331T093000).
        #expect(r.stderrText.contains("has no occurrence at 2026-03-31T09:30"), "\(r.stderrText)")
        #expect(!r.stderrText.contains("20260331T"), "\(r.stderrText)")
        #expect(
            r.stderrText.contains("2026-03-30T09:30") && r.stderrText.contains("2026-04-06T09:30"),
            "the nearest occurrences are not listed: \(r.stderrText)")
        #expect(try s.event(uid) == before)
    }

    /// `invitations` lists an invitation to one occurrence with a command that answers it as
    /// printed: its --occurrence is in the form the option reads.
    @Test func anInvitationToOneOccurrenceIsAnsweredByTheCommandListed() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let me = "mailto:me@example.org", them = "mailto:them@example.org"
        func event(_ extra: String) -> String {
            "BEGIN:VEVENT\r\nUID:inv\r\nDTSTAMP:20260101T000000Z\r\n\(extra)SUMMARY:Weekly\r\nORGANIZER:\(them)\r\n"
                + "ATTENDEE;PARTSTAT=NEEDS-ACTION:\(me)\r\nEND:VEVENT\r\n"
        }
        try Data(
            ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//x//EN\r\n"
                + event("DTSTART:20270301T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\n").replacingOccurrences(
                    of: "NEEDS-ACTION", with: "ACCEPTED")
                + event("RECURRENCE-ID:20270308T100000Z\r\nDTSTART:20270308T120000Z\r\n")
                + "END:VCALENDAR\r\n").utf8
        ).write(to: s.vdir.appendingPathComponent("inv.ics"))
        let listed = try await s.calgw(["invitations", "--address", me, "--json"])
        let rows = (try? JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]]) ?? []
        let answer = try #require(rows.first?["answer"] as? String, "\(listed.stdoutText)\(listed.stderrText)")
        #expect(rows.count == 1 && answer.contains("--occurrence 2027-03-08T10:00"), "\(answer)")
        let words = answer.split(separator: " ").dropFirst().map(String.init)
        let reply = try await s.calgw(words + ["--address", me, "--offline"], tz: "UTC")
        #expect(reply.status == 0, "\(answer): \(reply.stderrText)")
        let override = try #require(try s.event("inv").components.first { $0["RECURRENCE-ID"] != nil })
        #expect(override.properties.first { $0.name == "ATTENDEE" }?[parameter: "PARTSTAT"] == "ACCEPTED")
    }

    /// `invitations` reads a pair's vdir as `sync` does: its own item files, not those of a
    /// folder inside it, which no run syncs and no answer would reach the organizer from.
    @Test func invitationsReadTheVdirsOwnFilesAsSyncDoes() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let me = "mailto:me@example.org"
        func invitation(_ uid: String) -> Data {
            Data(
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//x//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                    + "DTSTAMP:20260101T000000Z\r\nDTSTART:20270301T100000Z\r\nSUMMARY:\(uid)\r\n"
                    + "ORGANIZER:mailto:them@example.org\r\nATTENDEE;PARTSTAT=NEEDS-ACTION:\(me)\r\n"
                    + "END:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
        }
        try invitation("synced").write(to: s.vdir.appendingPathComponent("synced.ics"))
        let inner = s.vdir.appendingPathComponent("old-copy")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try invitation("not-synced").write(to: inner.appendingPathComponent("not-synced.ics"))
        let listed = try await s.calgw(["invitations", "--address", me, "--json"])
        let rows = (try? JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]]) ?? []
        #expect(rows.compactMap { $0["uid"] as? String } == ["synced"], "\(listed.stdoutText)\(listed.stderrText)")
    }

    /// The server down: the event is made in the vdir, and the hint points at a push, never at
    /// running the command again (which would add the event twice).
    @Test func aServerThatCannotBeReachedLeavesOneHintThatHoldsTogether() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let r = try await s.calgw(["event", "add", "--summary", "Dentist", "--start", "2026-03-29T10:00"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("hint:") && r.stderrText.contains("`calgw push` sends it"), "\(r.stderrText)")
        #expect(!r.stderrText.contains("rerunning is safe"), "the hint contradicts itself: \(r.stderrText)")
        #expect(try s.files().count == 1)
    }

    /// An occurrence removed by EXDATE is refused by edit and by delete, saying so and naming
    /// the nearest occurrences; nothing is written (before, edit made an override beside the
    /// EXDATE, and nothing showed that day).
    @Test func anExcludedOccurrenceIsRefusedByEditAndDelete() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let uid = try await weeklySeries(s)
        let removed = try await s.calgw(["event", "delete", uid, "--occurrence", "2026-04-06T09:30", "--offline"])
        #expect(removed.status == 0, "\(removed.stderrText)")
        let before = try s.event(uid)
        for command in [
            [
                "event", "edit", uid, "--occurrence", "2026-04-06T09:30", "--span", "this", "--summary", "Moved",
                "--offline",
            ],
            ["event", "delete", uid, "--occurrence", "2026-04-06T09:30", "--offline"],
        ] {
            let r = try await s.calgw(command)
            #expect(r.status == 2, "\(command[1]): \(r.status) \(r.stderrText)")
            #expect(
                r.stderrText.contains("no occurrence at 2026-04-06T09:30: it was removed from the series (EXDATE)"),
                "\(command[1]): \(r.stderrText)")
            #expect(
                r.stderrText.contains("2026-03-30T09:30") && r.stderrText.contains("2026-04-13T09:30"),
                "\(command[1]): \(r.stderrText)")
            #expect(try s.event(uid) == before, "\(command[1]) wrote the file")
        }
    }

    @Test func deleteOneOccurrenceThenTheWholeEvent() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let uid = try await weeklySeries(s)
        var r = try await s.calgw(["event", "delete", uid, "--occurrence", "2026-04-06T09:30", "--offline"])
        #expect(r.status == 0, "\(r.stderrText)")
        let master = try #require(try s.event(uid).components.first { $0.name == "VEVENT" })
        #expect(master["EXDATE"]?.value == "20260406T093000" && master["EXDATE"]?.tzid == "Europe/Berlin")
        #expect(master["SEQUENCE"]?.value == "1")
        r = try await s.calgw(["event", "delete", uid, "--offline"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try s.files().isEmpty)
        r = try await s.calgw(["event", "delete", uid, "--offline"])
        #expect(r.status == 1 && r.stderrText.contains("no event with UID"), "\(r.stderrText)")
    }

    @Test func withoutOfflineTheChangeReachesTheOtherSide() async throws {
        let s = try Setup()
        defer { s.folder.remove() }
        let mirror = s.folder.file("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        try """
        [pair.test]
        local = "\(s.vdir.path)"
        remote = "\(mirror.absoluteString)"
        journal = "\(s.folder.file("journal.sqlite").path)"
        """.write(to: s.config, atomically: true, encoding: .utf8)
        var r = try await s.calgw([
            "event", "add", "--summary", "Pushed", "--start", "2026-05-04T09:00", "--rrule", "FREQ=DAILY;COUNT=5",
            "--json",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        struct Added: Decodable { var uid: String; var pushed: Bool }
        let added = try JSONDecoder().decode(Added.self, from: r.stdout)
        #expect(added.pushed)
        let remoteFile = mirror.appendingPathComponent(added.uid + ".ics")
        // The same event, with the VTIMEZONE of its TZID in the file as on the server.
        let uploaded = try #require(try ICalendarParser().parse(Data(contentsOf: remoteFile)).calendar)
        let written = try #require(
            try ICalendarParser().parse(Data(contentsOf: s.vdir.appendingPathComponent(added.uid + ".ics"))).calendar)
        #expect(uploaded.components(named: "VEVENT") == written.components(named: "VEVENT"))
        #expect(uploaded.components(named: "VTIMEZONE").map { $0["TZID"]?.value } == ["Europe/Berlin"])
        #expect(written.components(named: "VTIMEZONE").map { $0["TZID"]?.value } == ["Europe/Berlin"])

        r = try await s.calgw(["event", "delete", added.uid, "--occurrence", "2026-05-06T09:00", "--span", "future"])
        #expect(r.status == 0, "\(r.stderrText)")
        let remote = try #require(
            try ICalendarParser().parse(Data(contentsOf: remoteFile)).calendar?.components(named: "VEVENT").first)
        #expect(remote["RRULE"]?.value == "FREQ=DAILY;COUNT=2")
        r = try await s.calgw(["status", "--json"])
        #expect(r.status == 0 && JSONCounts.writes(in: r.stdoutText) == 0, "\(r.stdoutText)")
    }
}
