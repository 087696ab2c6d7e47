import Foundation
import Testing
import CalgwTestSupport

/// A pair whose local side is one `.ics` file (`local = ".../calendar.ics"`) with a Radicale
/// calendar, through the built binary: a Thunderbird-style export synced both ways, changes on
/// each side, another program's edit merged, a hand-broken file stopping the run until fixed,
/// and a run killed at each step leaving the file whole.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SingleFilePairTests {
    /// A single-file pair on a fresh calendar of `server`.
    struct Fixture {
        let account: AccountFixture
        let calendar: URL
        let file: URL
        let config: URL

        init(server: TestServer) async throws {
            account = try AccountFixture(server: server)
            calendar = try await account.makeCalendar("single-\(account.id)")
            file = account.folder.file("Documents/calendar.ics")
            config = account.folder.file("single.toml")
            try Data(
                """
                [pair.export]
                local = "\(file.path)"
                remote = "\(calendar.absoluteString)"
                username = "\(server.username)"
                password_env = "CALGW_TEST_PASSWORD"
                journal = "\(account.folder.file("export.sqlite").path)"
                """.utf8
            ).write(to: config)
        }

        func calgw(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                arguments + ["--config", config.path],
                environment: environment.merging(["CALGW_TEST_PASSWORD": account.server.password]) { a, _ in a })
        }

        func writeFile(_ text: String) throws {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }

        var fileText: String { get throws { String(decoding: try Data(contentsOf: file), as: UTF8.self) } }

        var serverText: String { get async throws { try await AccountEventTests.serverText(account, calendar) } }
    }

    /// UID → SUMMARY of each VEVENT (overrides aside) in calendar text, lines unfolded, TEXT
    /// and XML escapes of `,` and `>` undone (a server may write either).
    static func summaries(_ text: String) -> [String: String] {
        let unfolded = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: "&gt;", with: ">")
        var out: [String: String] = [:]
        for block in unfolded.components(separatedBy: "BEGIN:VEVENT").dropFirst() {
            let lines = block.components(separatedBy: "\n")
            guard let uid = lines.first(where: { $0.hasPrefix("UID:") })?.dropFirst(4),
                !lines.contains(where: { $0.hasPrefix("RECURRENCE-ID") })
            else { continue }
            out[String(uid)] = lines.first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) } ?? ""
        }
        return out
    }

    /// A real multi-event calendar of the corpus: a custom VTIMEZONE then four events using it,
    /// as a calendar program's export has them (no final line end, a folded SUMMARY), with
    /// CRLF line ends as Thunderbird writes them.
    static func corpusExport() throws -> String {
        let url = try #require(
            CorpusFiles.icsFiles().first { $0.lastPathComponent == "issue_722_timezone_transition_ambiguity.ics" },
            "the corpus under \(TestPaths.corpora.path) is missing")
        return String(decoding: try Data(contentsOf: url), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n", with: "\r\n")
    }

    @Test func anExportSyncsBothWaysAndKeepsInStepWithRadicale() async throws {
        // Its store on a disk: with it in memory (/dev/shm), Radicale answers the first PUT into
        // the new calendar with 409 no-uid-conflict (not understood yet; nothing of calgw's has
        // run by then).
        let server = try TestServers.start(TestServers.any(), under: URL(fileURLWithPath: "/var/tmp"))
        defer { server.stop() }
        let pair = try await Fixture(server: server)
        defer { pair.account.remove() }
        let export = try Self.corpusExport()
        try pair.writeFile(export)
        try await pair.account.put(
            TestEvent.ics(uid: "srv-1", summary: "From the server", start: "20260301T100000Z", duration: "PT1H"),
            name: "srv-1", in: pair.calendar)

        // The first sync: the file's four events go up, the server's one comes down.
        var r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["created", "remote"]) == 4, "\(r.stdoutText)")
        #expect(AccountFixture.number(r.stdoutText, ["created", "local"]) == 1, "\(r.stdoutText)")
        let exported = Self.summaries(export)
        #expect(exported.count == 4)
        var expected = exported.merging(["srv-1": "From the server"]) { a, _ in a }
        do {
            let server = try await pair.serverText
            #expect(Self.summaries(server) == expected, "\(server)")
        }
        #expect(Self.summaries(try pair.fileText) == expected)
        var text = try pair.fileText
        // Rewritten whole, the export's own lines are kept as they were.
        let zone = try #require(
            export.range(of: "(?s)BEGIN:VTIMEZONE\r\n.*?END:VTIMEZONE\r\n", options: .regularExpression))
        #expect(text.contains(export[zone]))
        #expect(text.components(separatedBy: "TZID:MyTimezone").count == 2, "one VTIMEZONE: \(text)")
        #expect(
            text.contains(
                "SUMMARY:Transition is from 8am -> 6am, so 7:00:01 is winter\r\n  RFC5545 does not allow us to be at the later TZ."
            ))

        r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(r.stdoutText) \(r.stderrText)")

        // `list` reads the file's events.
        r = try await pair.calgw(["list", "--from", "2024-01-01", "--to", "2027-01-01", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let listed = ((try? JSONSerialization.jsonObject(with: r.stdout)) as? [[String: Any]] ?? []).compactMap {
            $0["uid"] as? String
        }
        #expect(Set(listed) == Set(expected.keys), "\(r.stdoutText)")

        // A change on each side.
        try pair.writeFile(
            try pair.fileText.replacingOccurrences(
                of: "SUMMARY:This event is clearly in winter",
                with: "SUMMARY:Winter, edited in the file"))
        try await pair.account.put(
            TestEvent.ics(uid: "srv-1", summary: "Edited on the server", start: "20260301T100000Z", duration: "PT1H"),
            name: "srv-1", in: pair.calendar)
        r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["updated", "remote"]) == 1, "\(r.stdoutText)")
        #expect(AccountFixture.number(r.stdoutText, ["updated", "local"]) == 1, "\(r.stdoutText)")
        expected["0"] = "Winter, edited in the file"
        expected["srv-1"] = "Edited on the server"
        do {
            let server = try await pair.serverText
            #expect(Self.summaries(server) == expected, "\(server)")
        }
        #expect(Self.summaries(try pair.fileText) == expected)

        // Another program rewrites the file between syncs (a new event, one removed, and a
        // summary changed) while the server changes the same event's location: both survive.
        text = try pair.fileText
        let newEvent =
            "BEGIN:VEVENT\r\nUID:by-hand\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260401T100000Z\r\nSUMMARY:Added by hand\r\nEND:VEVENT\r\n"
        var edited = text.replacingOccurrences(of: "END:VCALENDAR", with: newEvent + "END:VCALENDAR")
            .replacingOccurrences(
                of: "SUMMARY:This event is clearly in summer", with: "SUMMARY:Summer, by another program")
        let one = try #require(edited.range(of: "BEGIN:VEVENT\r\nUID:2\r\n")).lowerBound
        let oneEnd = try #require(edited.range(of: "END:VEVENT\r\n", range: one..<edited.endIndex)).upperBound
        edited.removeSubrange(one..<oneEnd)
        try Data(edited.utf8).write(to: pair.account.folder.file("elsewhere.ics"))
        #expect(rename(pair.account.folder.file("elsewhere.ics").path, pair.file.path) == 0)
        let summerHref = try await #require(try ServerToServerTests.href(of: "1", in: pair.account, pair.calendar))
        let summerOnServer = try await pair.serverText.components(separatedBy: "BEGIN:VEVENT").first {
            $0.contains("UID:1\n")
        }
        #expect(summerOnServer != nil)
        try await pair.account.put(
            Self.withLocation(try Self.corpusEvent(uid: "1"), "Lakeside"), name: summerHref, in: pair.calendar)
        r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["created", "remote"]) == 1, "\(r.stdoutText)")
        #expect(AccountFixture.number(r.stdoutText, ["deleted", "remote"]) == 1, "\(r.stdoutText)")
        expected["by-hand"] = "Added by hand"
        expected["1"] = "Summer, by another program"
        expected["2"] = nil
        do {
            let server = try await pair.serverText
            #expect(Self.summaries(server) == expected, "\(server)")
        }
        #expect(Self.summaries(try pair.fileText) == expected)
        #expect(try pair.fileText.contains("LOCATION:Lakeside"), "the server's location merged into the file")
        await #expect(try pair.serverText.contains("LOCATION:Lakeside"))

        r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(r.stdoutText) \(r.stderrText)")
    }

    /// One event of the corpus export as a calendar object of its own, with its VTIMEZONE.
    static func corpusEvent(uid: String) throws -> String {
        let export = try corpusExport().replacingOccurrences(of: "\r\n", with: "\n") + "\n"
        let zone = try #require(
            export.range(of: "(?s)BEGIN:VTIMEZONE\n.*?END:VTIMEZONE\n", options: .regularExpression))
        let event = try #require(
            export.range(of: "(?s)BEGIN:VEVENT\nUID:\(uid)\n.*?END:VEVENT\n", options: .regularExpression))
        return
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//other client//EN\n\(export[zone])\(export[event])END:VCALENDAR\n"
            .replacingOccurrences(of: "\n", with: "\r\n")
    }

    static func withLocation(_ ics: String, _ location: String) -> String {
        ics.replacingOccurrences(of: "END:VEVENT", with: "LOCATION:\(location)\r\nEND:VEVENT")
    }

    @Test func aHandBrokenFileStopsTheRunUntilItIsFixed() async throws {
        let server = try TestServers.start(TestServers.any())
        defer { server.stop() }
        let pair = try await Fixture(server: server)
        defer { pair.account.remove() }
        try pair.writeFile(try Self.corpusExport())
        var r = try await pair.calgw(["sync"])
        #expect(r.status == 0, "\(r.stderrText)")

        // Broken by hand (an END that does not match), with a change on the server meanwhile.
        let good = try pair.fileText
        let broken = good.replacingOccurrences(
            of: "X-TZNAME:summer\r\nDTSTART;TZID=MyTimezone;VALUE=DATE-TIME:20240803T080000\r\nEND:VEVENT",
            with: "X-TZNAME:summer\r\nDTSTART;TZID=MyTimezone;VALUE=DATE-TIME:20240803T080000\r\nEND:VTODO")
        #expect(broken != good)
        let brokenLine = broken.components(separatedBy: "\r\n").firstIndex(of: "END:VTODO")! + 1
        try pair.writeFile(broken)
        let href = try await #require(try ServerToServerTests.href(of: "0", in: pair.account, pair.calendar))
        try await pair.account.put(
            Self.withLocation(try Self.corpusEvent(uid: "0"), "Hut"), name: href, in: pair.calendar)
        let serverBefore = try await pair.serverText

        for command in ["sync", "push", "pull", "status"] {
            r = try await pair.calgw([command])
            #expect(r.status == 1, "\(command): \(r.stdoutText) \(r.stderrText)")
            #expect(
                r.stderrText.contains("\(pair.file.path):\(brokenLine): END:VTODO does not match BEGIN:VEVENT"),
                "\(command): \(r.stderrText)")
            #expect(try pair.fileText == broken, "\(command) wrote the file")
            await #expect(try pair.serverText == serverBefore, "\(command) wrote the server")
        }

        // status shows the last good state and the broken place, as text and as JSON.
        r = try await pair.calgw(["status"])
        #expect(
            r.stdoutText.contains("items synced, last sync 20") && !r.stdoutText.contains("0 items synced")
                && !r.stdoutText.contains("last sync never"), "\(r.stdoutText)")
        #expect(r.stdoutText.contains("\(pair.file.path):\(brokenLine): END:VTODO does not match"), "\(r.stdoutText)")
        r = try await pair.calgw(["status", "--json"])
        let status = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let place = (status["broken"] as? [[String: Any]])?.first
        #expect(place?["path"] as? String == pair.file.path && place?["line"] as? Int == brokenLine, "\(r.stdoutText)")
        #expect(
            (status["synced"] as? Int ?? 0) > 0 && status["lastSync"] is String
                && status["unreadable"] as? String == "local", "\(r.stdoutText)")

        // Fixed: the run goes on, and the server's change comes down.
        try pair.writeFile(good)
        r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["updated", "local"]) == 1, "\(r.stdoutText)")
        #expect(try pair.fileText.contains("LOCATION:Hut"))
        r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(r.stdoutText) \(r.stderrText)")
    }

    /// Kills `calgw sync` after each of its side effects in turn: the file is always whole
    /// (the old one or the new one), and the next run converges.
    @Test func aKilledSyncLeavesTheFileWholeAndTheRerunConverges() async throws {
        let server = try TestServers.start(TestServers.any())
        defer { server.stop() }
        var k = 1
        while k < 40 {
            let pair = try await Fixture(server: server)
            defer { pair.account.remove() }
            let start = ["a", "b", "c"].map {
                TestEvent.ics(uid: $0, summary: "v1", start: "20260301T100000Z", duration: "PT1H")
            }
            try pair.writeFile(
                start.map {
                    $0.replacingOccurrences(
                        of: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\n", with: ""
                    )
                    .replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")
                }
                .reduce("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nX-WR-CALNAME:Mine\r\n", +)
                    + "END:VCALENDAR\r\n")
            #expect(try await pair.calgw(["sync"]).status == 0)
            var text = try pair.fileText
            text = text.replacingOccurrences(
                of: "UID:a\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260301T100000Z\r\nDURATION:PT1H\r\nSUMMARY:v1",
                with:
                    "UID:a\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260301T100000Z\r\nDURATION:PT1H\r\nSUMMARY:local edit"
            )
            text = text.replacingOccurrences(
                of:
                    "BEGIN:VEVENT\r\nUID:b\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260301T100000Z\r\nDURATION:PT1H\r\nSUMMARY:v1\r\nEND:VEVENT\r\n",
                with: "")
            text = text.replacingOccurrences(
                of: "END:VCALENDAR",
                with:
                    "BEGIN:VEVENT\r\nUID:d\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260302T100000Z\r\nSUMMARY:new local\r\nEND:VEVENT\r\nEND:VCALENDAR"
            )
            try pair.writeFile(text)
            let cHref = try await #require(try ServerToServerTests.href(of: "c", in: pair.account, pair.calendar))
            try await pair.account.put(
                TestEvent.ics(uid: "c", summary: "remote edit", start: "20260301T100000Z", duration: "PT1H"),
                name: cHref, in: pair.calendar)
            try await pair.account.put(
                TestEvent.ics(uid: "e", summary: "new remote", start: "20260301T100000Z", duration: "PT1H"),
                name: "e", in: pair.calendar)
            let expected = ["a": "local edit", "c": "remote edit", "d": "new local", "e": "new remote"]

            let killed = try await pair.calgw(["sync"], environment: ["CALGW_TEST_KILL_AFTER": "\(k)"])
            let after = try pair.fileText
            #expect(
                after == text || Self.summaries(after) == expected,
                "k = \(k): the file is neither the old nor the new one:\n\(after)")
            #expect(after.hasSuffix("END:VCALENDAR\r\n") && after.contains("X-WR-CALNAME:Mine"), "k = \(k)")
            let leftovers = try FileManager.default.contentsOfDirectory(
                atPath: pair.file.deletingLastPathComponent().path)
            #expect(leftovers.filter { !$0.hasSuffix(".tmp") } == ["calendar.ics"], "k = \(k): \(leftovers)")
            if killed.status == 0 {
                #expect(Self.summaries(after) == expected)
                #expect(k > 4)
                break
            }
            #expect(killed.status != 1, "k = \(k): \(killed.stderrText)")
            let rerun = try await pair.calgw(["sync"])
            #expect(rerun.status == 0, "k = \(k): \(rerun.stderrText)")
            #expect(Self.summaries(try pair.fileText) == expected, "k = \(k)")
            await #expect(Self.summaries(try pair.serverText) == expected, "k = \(k)")
            let third = try await pair.calgw(["sync", "--json"])
            #expect(third.status == 0 && AccountFixture.allZero(third.stdoutText), "k = \(k): \(third.stdoutText)")
            k += 1
        }
        #expect(k < 40, "the run never finished")
    }

    /// A first pull into the file stopped (SIGKILL after 2/3 of its writes, SIGTERM after a
    /// third), then a third of the server's events deleted and a third edited there: the next
    /// sync brings none of the deleted back and undoes no edit.
    @Test func aStoppedFirstPullThenServerChanges() async throws {
        let server = try TestServers.shared(TestServers.any())
        for (signal, k) in [("KILL", 30), ("TERM", 15)] {
            let pair = try await Fixture(server: server)
            defer { pair.account.remove() }
            let uids = (0..<45).map { "e\($0)" }
            for uid in uids {
                try await pair.account.put(
                    TestEvent.ics(uid: uid, summary: "v1", start: "20260301T100000Z", duration: "PT1H"),
                    name: uid, in: pair.calendar)
            }
            let stopped = try await pair.calgw(
                ["sync"], environment: ["CALGW_TEST_KILL_AFTER": "\(k)", "CALGW_TEST_SIGNAL": signal])
            #expect(
                stopped.status == 128 + (signal == "KILL" ? 9 : 15),
                "SIG\(signal): \(stopped.status) \(stopped.stderrText)")
            let deleted = uids.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            let edited = uids.enumerated().filter { $0.offset % 3 == 1 }.map(\.element)
            for uid in deleted {
                #expect(
                    try await pair.account.curl([
                        "-X", "DELETE", pair.calendar.appendingPathComponent("\(uid).ics").absoluteString,
                    ]).status == 0)
            }
            for uid in edited {
                try await pair.account.put(
                    TestEvent.ics(
                        uid: uid, summary: "edited on the phone", start: "20260301T100000Z",
                        duration: "PT1H"),
                    name: uid, in: pair.calendar)
            }
            let rerun = try await pair.calgw(["sync"])
            #expect(rerun.status == 0, "SIG\(signal): \(rerun.stderrText)")
            var expected: [String: String] = [:]
            for uid in uids { expected[uid] = "v1" }
            for uid in deleted { expected[uid] = nil }
            for uid in edited { expected[uid] = "edited on the phone" }
            let file = Self.summaries(try pair.fileText), remote = await Self.summaries(try pair.serverText)
            #expect(
                deleted.filter { file[$0] != nil || remote[$0] != nil }.isEmpty,
                "SIG\(signal): deleted events came back")
            #expect(
                file == expected && remote == expected,
                "SIG\(signal): \(file.count) in the file, \(remote.count) on the server")
        }
    }
}
