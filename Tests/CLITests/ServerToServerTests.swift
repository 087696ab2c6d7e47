import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// A pair of two servers (`local` a CalDAV calendar too): a migration from one to the other
/// and then two-way sync, with a "this and future" split and a conflict made on the servers
/// by other clients, in both directions between two kinds of server.
@Suite(.timeLimit(.minutes(10))) struct ServerToServerTests {
    static let directions: [(String, String)] = [("radicale", "xandikos"), ("xandikos", "radicale")]

    static func series(_ uid: String, until: String? = nil, summary: String = "Standup") -> String {
        let rule = until.map { "FREQ=DAILY;UNTIL=\($0)" } ?? "FREQ=DAILY;COUNT=10"
        return
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20260301T090000Z\r\nDURATION:PT15M\r\nRRULE:\(rule)\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// The calendar-data of every item of `calendar`, unfolded.
    static func text(_ side: AccountFixture, _ calendar: URL) async throws -> String {
        try await AccountEventTests.serverText(side, calendar)
    }

    @Test(.needsServer("radicale"), .needsServer("xandikos"), arguments: directions)
    func migratesThenSyncsBothWays(from first: String, to second: String) async throws {
        let a = try TestServers.start(first), b = try TestServers.start(second)
        defer { a.stop(); b.stop() }
        let left = try AccountFixture(server: a), right = try AccountFixture(server: b)
        defer { left.remove(); right.remove() }
        let id = left.id
        let from = try await left.makeCalendar("from-\(id)", displayName: "Old")
        let to = try await right.makeCalendar("to-\(id)", displayName: "New")
        try await left.put(Self.series("s-\(id)"), name: "s", in: from)
        try await left.put(
            TestEvent.ics(uid: "e-\(id)", summary: "Lunch", start: "20260301T100000Z", duration: "PT1H"), name: "e",
            in: from)
        try await left.put(AccountFixture.todo("t-\(id)", "Taxes"), name: "t", in: from)
        let config = left.folder.file("pair.toml")
        try TestPairConfig(
            name: "move", local: from, collection: to, journal: left.folder.file("move.sqlite"), server: b,
            passwordEnv: "REMOTE_PASSWORD",
            extra: ["local_username = \"\(a.username)\"", "local_password_env = \"LOCAL_PASSWORD\""]
        ).write(to: config)
        func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                arguments + ["--config", config.path],
                environment: ["LOCAL_PASSWORD": a.password, "REMOTE_PASSWORD": b.password])
        }
        let label = "\(first) → \(second)"

        // The migration: everything, tasks included, lands on the second server.
        var r = try await calgw(["sync", "--json"])
        #expect(r.status == 0, "\(label): \(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["created", "remote"]) == 3, "\(label): \(r.stdoutText)")
        var target = try await Self.text(right, to)
        #expect(
            target.contains("UID:s-\(id)") && target.contains("UID:e-\(id)") && target.contains("BEGIN:VTODO"),
            "\(label): \(target)")
        r = try await calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(label): \(r.stdoutText)")

        // A "this and future" split made on the first server by another client travels over.
        try await left.put(Self.series("s-\(id)", until: "20260304T235959Z"), name: "s", in: from)
        try await left.put(
            Self.series("s2-\(id)", summary: "Standup (new room)").replacingOccurrences(
                of: "20260301T09", with: "20260305T09"),
            name: "s2", in: from)
        r = try await calgw(["sync", "--json"])
        #expect(r.status == 0, "\(label): \(r.stderrText)")
        target = try await Self.text(right, to)
        #expect(target.contains("UNTIL=20260304T235959Z") && target.contains("UID:s2-\(id)"), "\(label): \(target)")

        // An edit on the second server travels back.
        let lunch = TestEvent.ics(
            uid: "e-\(id)", summary: "Lunch", start: "20260301T100000Z",
            duration: "PT1H"
        ).replacingOccurrences(of: "SUMMARY:Lunch", with: "SUMMARY:Lunch (moved)")
        let lunchHref = try #require(
            try await Self.href(of: "e-\(id)", in: right, to), "\(label): no href for the lunch on \(second)")
        try await right.put(lunch, name: lunchHref, in: to)
        r = try await calgw(["sync", "--json"])
        #expect(
            r.status == 0 && AccountFixture.number(r.stdoutText, ["updated", "local"]) == 1,
            "\(label): \(r.stdoutText) \(r.stderrText)")
        await #expect(
            try Self.text(left, from).contains("SUMMARY:Lunch (moved)"), "\(label): the edit did not reach \(first)")

        // Both servers change the series: the pair's merge keeps both fields.
        let base = Self.series("s-\(id)", until: "20260304T235959Z")
        try await left.put(
            base.replacingOccurrences(of: "SUMMARY:Standup", with: "SUMMARY:Standup\r\nLOCATION:Room 1"), name: "s",
            in: from)
        let seriesHref = try #require(try await Self.href(of: "s-\(id)", in: right, to))
        try await right.put(
            base.replacingOccurrences(of: "SUMMARY:Standup", with: "SUMMARY:Daily standup"), name: seriesHref, in: to)
        r = try await calgw(["sync", "--json"])
        #expect(r.status == 0, "\(label): \(r.stderrText)")
        for (side, calendar, name) in [(left, from, first), (right, to, second)] {
            let text = try await Self.text(side, calendar)
            #expect(
                text.contains("SUMMARY:Daily standup") && text.contains("LOCATION:Room 1"),
                "\(label): \(name) holds \(text)")
        }
        r = try await calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(label): \(r.stdoutText)")

        // What needs a folder says so.
        r = try await calgw(["event", "add", "--summary", "X", "--start", "2026-05-01T10:00"])
        #expect(
            r.status == 2 && r.stderrText.contains("local side is the server"), "\(label): \(r.status) \(r.stderrText)")
    }

    @Test(.needsServer("radicale"), .needsServer("xandikos")) func initWritesAPairOfTwoServers() async throws {
        let a = try TestServers.shared("radicale"), b = try TestServers.shared("xandikos")
        let left = try AccountFixture(server: a), right = try AccountFixture(server: b)
        defer { left.remove(); right.remove() }
        let from = try await left.makeCalendar("init-from-\(left.id)"),
            to = try await right.makeCalendar("init-to-\(left.id)")
        try await left.put(
            TestEvent.ics(uid: "i-\(left.id)", summary: "Moved by init", start: "20260301T100000Z", duration: "PT1H"),
            name: "i", in: from)
        let config = left.folder.file("init.toml")
        let environment = ["OLD_PASSWORD": a.password, "NEW_PASSWORD": b.password]
        var r = try await CalgwBinary.run(
            [
                "init", "--pair", "move", "--local", from.absoluteString, "--local-username", a.username,
                "--local-password-env", "OLD_PASSWORD", "--remote", to.absoluteString,
                "--username", b.username, "--password-env", "NEW_PASSWORD", "--config", config.path,
            ],
            environment: environment)
        #expect(r.status == 0, "\(r.stderrText)")
        let text = try String(contentsOf: config, encoding: .utf8)
        #expect(
            text.contains("local = \"\(from.absoluteString)\"")
                && text.contains("local_password_env = \"OLD_PASSWORD\""), "\(text)")
        r = try await CalgwBinary.run(["sync", "--json", "--config", config.path], environment: environment)
        #expect(
            r.status == 0 && AccountFixture.number(r.stdoutText, ["created", "remote"]) == 1,
            "\(r.stdoutText) \(r.stderrText)")
        await #expect(try Self.text(right, to).contains("UID:i-\(left.id)"))
        // Sign-in keys for a local side that is a folder are a usage error.
        r = try await CalgwBinary.run([
            "init", "--local", left.folder.file("vdir").path, "--local-username", "x",
            "--remote", to.absoluteString, "--config", config.path,
        ])
        #expect(r.status == 2, "\(r.stderrText)")
    }

    /// The name (without `.ics`) of the resource holding `uid` on a server, found by a
    /// calendar-query; nil when it is not there.
    static func href(of uid: String, in side: AccountFixture, _ calendar: URL) async throws -> String? {
        let query =
            "<?xml version=\"1.0\"?><c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
            + "<d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VEVENT\">"
            + "<c:prop-filter name=\"UID\"><c:text-match collation=\"i;octet\">\(uid)</c:text-match></c:prop-filter>"
            + "</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"
        let r = try await side.curl([
            "-X", "REPORT", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data", query,
            calendar.absoluteString,
        ])
        guard let range = r.stdoutText.range(of: "[^/>]+\\.ics(?=<)", options: .regularExpression) else { return nil }
        return String(r.stdoutText[range].dropLast(4))
    }
}
