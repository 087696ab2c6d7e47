import Foundation
import Testing
import CalgwTestSupport

/// `event add/edit/delete/open` on an account pair, on a fresh server of each kind: the event
/// lands in the chosen calendar's folder and on that calendar on the server, through the
/// journal the account's runs keep, so the next sync has nothing left to do.
@Suite(.timeLimit(.minutes(10))) struct AccountEventTests {
    /// Every item of a calendar, as the server sends it (calendar-query of all data).
    static func serverText(_ account: AccountFixture, _ calendar: URL) async throws -> String {
        try await account.server.text(of: calendar)
    }

    /// The `"key": "value"` string of a JSON object.
    static func string(_ json: String, _ key: String) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?[key] as? String
    }

    static func bool(_ json: String, _ key: String) -> Bool? {
        ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?[key] as? Bool
    }

    @Test(arguments: TestServers.selected)
    func eventsGoToTheChosenCalendar(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let home = "home-\(account.id)", work = "work-\(account.id)"
        let homeURL = try await account.makeCalendar(home, displayName: "Home")
        let workURL = try await account.makeCalendar(work, displayName: "Work")
        try await account.put(
            TestEvent.ics(uid: "h-\(account.id)", summary: "Home", start: "20260301T100000Z", duration: "PT1H"),
            name: "h", in: homeURL)
        var r = try await account.calgw(["sync"])
        try #require(r.status == 0, "\(name): \(r.stderrText)")

        // Two calendars and none chosen: a usage error that names them, and nothing written.
        r = try await account.calgw(["event", "add", "--summary", "Nowhere", "--start", "2026-05-04T10:00"])
        #expect(r.status == 2, "\(name): \(r.status) \(r.stderrText)")
        #expect(
            r.stderrText.contains(home) && r.stderrText.contains(work) && r.stderrText.contains("--collection"),
            "\(name): \(r.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: account.local.appendingPathComponent("Nowhere").path))
        #expect(account.files(work).isEmpty && account.files(home).count == 1, "\(name): \(account.subfolders())")
        r = try await account.calgw([
            "event", "add", "--collection", "nope", "--summary", "Nowhere", "--start", "2026-05-04T10:00",
        ])
        #expect(r.status == 2 && r.stderrText.contains("no collection nope"), "\(name): \(r.status) \(r.stderrText)")

        // Added to the work calendar: its folder, and that calendar on the server.
        r = try await account.calgw([
            "event", "add", "--collection", work, "--summary", "Review", "--start", "2026-05-04T10:00",
            "--tz", "Europe/Berlin", "--rrule", "FREQ=WEEKLY;COUNT=6", "--json",
        ])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let uid = try #require(Self.string(r.stdoutText, "uid"), "\(name): \(r.stdoutText)")
        #expect(Self.bool(r.stdoutText, "pushed") == true, "\(name): \(r.stdoutText) \(r.stderrText)")
        #expect(account.files(work) == ["\(uid).ics"], "\(name): \(account.files(work))")
        #expect(
            !FileManager.default.fileExists(atPath: account.local.appendingPathComponent("\(uid).ics").path),
            "\(name): the event was written at the account's root")
        #expect(try await Self.serverText(account, workURL).contains("UID:\(uid)"), "\(name): not on the work calendar")
        #expect(try await !Self.serverText(account, homeURL).contains("UID:\(uid)"), "\(name): on the home calendar")
        #expect(
            !FileManager.default.fileExists(atPath: account.folder.file("account.sqlite").path),
            "\(name): a journal for the whole account as if it were one calendar")

        // This and the following occurrences: a split into a second series, both on the work calendar.
        r = try await account.calgw([
            "event", "edit", uid, "--collection", work, "--occurrence", "2026-05-18T10:00", "--span", "future",
            "--summary", "Review (new room)", "--tz", "Europe/Berlin", "--json",
        ])
        #expect(r.status == 0 && Self.bool(r.stdoutText, "pushed") == true, "\(name): \(r.stdoutText) \(r.stderrText)")
        let newSeries = try #require(Self.string(r.stdoutText, "newSeries"), "\(name): \(r.stdoutText)")
        var text = try await Self.serverText(account, workURL)
        #expect(text.contains("UID:\(newSeries)") && text.contains("SUMMARY:Review (new room)"), "\(name): \(text)")
        #expect(text.contains("COUNT=2") || text.contains("UNTIL="), "\(name): the first series was not cut: \(text)")

        // Edited by an editor, then deleted.
        let editor = account.folder.file("editor.sh")
        try "#!/bin/sh\nsed -i 's/^SUMMARY:Review/SUMMARY:Review (edited)/' \"$1\"\n".write(
            to: editor, atomically: true, encoding: .utf8)
        chmod(editor.path, 0o755)
        r = try await CalgwBinary.run(
            ["event", "open", uid, "--collection", work, "--config", account.config.path],
            environment: ["CALGW_TEST_PASSWORD": server.password, "VISUAL": editor.path])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(
            try await Self.serverText(account, workURL).contains("SUMMARY:Review (edited)"),
            "\(name): the edit did not reach the server")
        r = try await account.calgw(["event", "delete", newSeries, "--collection", work])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        text = try await Self.serverText(account, workURL)
        #expect(!text.contains("UID:\(newSeries)") && text.contains("UID:\(uid)"), "\(name): \(text)")

        // The account's own journals recorded every change: a sync finds nothing to do.
        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(name): \(r.stdoutText) \(r.stderrText)")
    }

    @Test(arguments: TestServers.selected)
    func offlineEventsWaitInTheCalendarsFolderForTheNextSync(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let work = "work"
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let workURL = try await account.makeCalendar("\(work)-\(account.id)", displayName: "Work")
        try await account.makeCalendar("other-\(account.id)", displayName: "Other")
        var r = try await account.calgw(["sync"])
        try #require(r.status == 0, "\(name): \(r.stderrText)")
        // The pair's default calendar, from the config.
        try Data(("\n" + "default_collection = \"\(work)-\(account.id)\"\n").utf8).append(to: account.config)

        r = try await account.calgw([
            "event", "add", "--offline", "--summary", "Later", "--start", "2026-06-01T09:00", "--json",
        ])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let uid = try #require(Self.string(r.stdoutText, "uid"), "\(name): \(r.stdoutText)")
        #expect(Self.bool(r.stdoutText, "pushed") == false)
        #expect(account.files("\(work)-\(account.id)") == ["\(uid).ics"], "\(name): \(account.subfolders())")
        #expect(
            try await !Self.serverText(account, workURL).contains("UID:\(uid)"), "\(name): --offline reached the server"
        )

        r = try await account.calgw(["status", "--json"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["pending", "created", "remote"]) == 1, "\(name): \(r.stdoutText)")
        r = try await account.calgw(["sync", "--json"])
        #expect(
            r.status == 0 && AccountFixture.number(r.stdoutText, ["created", "remote"]) == 1,
            "\(name): \(r.stdoutText) \(r.stderrText)")
        #expect(try await Self.serverText(account, workURL).contains("UID:\(uid)"), "\(name): the sync did not send it")
    }
}

extension Data {
    /// Appends these bytes to the file at `url`.
    func append(to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
