import Foundation
import Testing
import CalgwTestSupport

@Suite(.timeLimit(.minutes(10))) struct ListCommandTests {
    @Test func listsEveryFileOfAFolderSortedByStartWithHrefs() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func event(_ uid: String, _ start: String) -> String {
            TestEvent.ics(uid: uid, summary: uid, start: start, duration: "PT1H")
        }
        try Data(event("b", "20260302T090000Z").utf8).write(to: folder.file("b.ics"))
        try Data(event("a", "20260302T100000Z").utf8).write(to: folder.file("a.ics"))
        try Data(event("c", "20260402T100000Z").utf8).write(to: folder.file("c.ics"))
        let result = try await CalgwBinary.run([
            "list", "--local", folder.url.path, "--from", "2026-03-01T00:00Z", "--to", "2026-04-01T00:00Z", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let raw = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(raw.compactMap { $0["uid"] as? String } == ["b", "a"])
        #expect(raw.compactMap { $0["href"] as? String } == ["b.ics", "a.ics"])
        #expect(raw.first?["recurrenceId"] is NSNull)
    }

    /// A file with an unclosed quote is named at its line, and every other file is listed
    /// all the same (in text and in JSON); the exit status says a file was broken.
    @Test func aBrokenFileIsNamedAndTheOthersAreListed() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try TestEvent.data(uid: "good", summary: "Good", start: "20260302T090000Z").write(to: folder.file("good.ics"))
        try Data(
            TestEvent.ics(
                uid: "quoted", summary: "Quoted", start: "20260302T100000Z",
                extra: ["ATTENDEE;CN=\"Bob:mailto:bob@example.org"]
            ).utf8
        ).write(to: folder.file("quoted.ics"))
        for json in [false, true] {
            let result = try await CalgwBinary.run(
                ["list", "--local", folder.url.path, "--from", "2026-03-01", "--to", "2026-04-01"]
                    + (json ? ["--json"] : []))
            #expect(result.status == 1, "\(result.stderrText)")
            #expect(result.stdoutText.contains("good") || result.stdoutText.contains("Good"), "\(result.stdoutText)")
            #expect(
                result.stderrText.contains(folder.file("quoted.ics").path + ": ")
                    && result.stderrText.contains("unclosed quote"), "\(result.stderrText)")
        }
    }

    @Test func listsASingleFileOfManyEvents() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let calendar =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
            + ["x", "y"].map {
                "BEGIN:VEVENT\r\nUID:\($0)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260305T100000Z\r\nSUMMARY:\($0)\r\nEND:VEVENT\r\n"
            }.joined()
            + "END:VCALENDAR\r\n"
        try Data(calendar.utf8).write(to: folder.file("all.ics"))
        let result = try await CalgwBinary.run([
            "list", "--local", folder.file("all.ics").path, "--from", "2026-03-01", "--to", "2026-04-01", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let raw = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(raw.compactMap { $0["uid"] as? String } == ["x", "y"])
    }

    /// A pair's events are listed from the files its runs sync, as the pair sees them: a
    /// subfolder of a single calendar's vdir, and an account's calendar its `collections`
    /// leave out, are not synced, so not listed.
    @Test func aPairListsWhatItsRunsSync() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func event(_ uid: String) -> Data { TestEvent.data(uid: uid, summary: uid, start: "20260305T100000Z") }
        for path in [
            "vdir/in.ics", "vdir/old/aside.ics", "vdir/.hidden.ics", "account/work/w.ics", "account/skipped/s.ics",
        ] {
            try FileManager.default.createDirectory(
                at: folder.file(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try event(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent).write(to: folder.file(path))
        }
        try Data(
            """
            [pair.one]
            local = "\(folder.file("vdir").path)"
            remote = "file://\(folder.file("mirror").path)"
            [pair.acct]
            local = "\(folder.file("account").path)"
            remote = "https://dav.example.com/home/"
            collections = ["work"]
            """.utf8
        ).write(to: folder.file("config.toml"))
        func uids(_ pair: String) async throws -> [String] {
            let r = try await CalgwBinary.run([
                "list", "--pair", pair, "--from", "2026-03-01", "--to", "2026-04-01", "--json", "--config",
                folder.file("config.toml").path,
            ])
            #expect(r.status == 0, "\(r.stderrText)")
            return ((try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]]) ?? []).compactMap {
                $0["uid"] as? String
            }
        }
        #expect(try await uids("one") == ["in"])
        #expect(try await uids("acct") == ["w"])
    }

    @Test func aMissingFolderIsAnError() async throws {
        let result = try await CalgwBinary.run([
            "list", "--local", "/nonexistent/calgw", "--from", "2026-03-01", "--to", "2026-04-01",
        ])
        #expect(result.status == 1)
        #expect(result.stderrText.contains("no such folder: /nonexistent/calgw"), "\(result.stderrText)")
    }
}

@Suite(.timeLimit(.minutes(10))) struct ListCommandPairTests {
    @Test func readsThePairsVdirFromTheConfig() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let event =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:w\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20260302T100000\r\nDURATION:PT1H\r\nRRULE:FREQ=WEEKLY\r\nSUMMARY:Weekly\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try Data(event.utf8).write(to: vdir.appendingPathComponent("w.ics"))
        let config = folder.file("config.toml")
        try Data("[pair.personal]\nlocal = \"\(vdir.path)\"\nremote = \"https://dav.example.com/cal/\"\n".utf8).write(
            to: config)
        let result = try await CalgwBinary.run([
            "list", "--config", config.path, "--from", "2026-03-01", "--to", "2026-04-01", "--tz", "Europe/Berlin",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.split(separator: "\n").count == 5)
        #expect(
            result.stdoutText.contains("2026-03-30  10:00–11:00  Weekly"), "the summer-time instance keeps 10:00 Berlin"
        )
        let unknown = try await CalgwBinary.run([
            "list", "--config", config.path, "--pair", "nope", "--from", "2026-03-01", "--to", "2026-04-01",
        ])
        #expect(unknown.status == 2, "a missing pair is a configuration error: \(unknown.stderrText)")
    }

    /// Issue 47: `list` reads a vdir file that names its zone in X-WR-TIMEZONE as `expand` does.
    @Test func floatingTimesOfACalendarNamingItsZoneAreReadInIt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("readings/x-wr-timezone.ics")).write(
            to: folder.file("exported.ics"))
        let result = try await CalgwBinary.run([
            "list", "--local", folder.url.path, "--from", "2026-03-05", "--to", "2026-03-06", "--tz", "UTC",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == "2026-03-05  23:30–2026-03-06 01:00  Dinner\n")
    }

    /// `list` reads a file with a misspelled END as `expand` does: the other files and the
    /// file's own events are listed, the line named in a warning on stderr, exit 0.
    @Test func aMisspelledEndIsAWarningAndTheRestIsListed() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("readings/misspelled-end.ics")).write(
            to: folder.file("damaged.ics"))
        try Data(TestEvent.ics(uid: "other", summary: "Other", start: "20260108T090000Z", duration: "PT1H").utf8)
            .write(to: folder.file("other.ics"))
        let result = try await CalgwBinary.run([
            "list", "--local", folder.url.path, "--from", "2026-01-08", "--to", "2026-01-09", "--tz", "UTC",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == "2026-01-08  09:00–10:00  Other\n2026-01-08  14:00–15:00  Dentist\n")
        let damaged = folder.file("damaged.ics").path
        #expect(
            result.stderrText.contains("warning: \(damaged): 21: END:VTOOD closes BEGIN:VTODO of line 11"),
            "\(result.stderrText)")
        #expect(!result.stderrText.contains("error:"), "\(result.stderrText)")
    }
}
