import Foundation
import Testing
import CalgwTestSupport

/// A pair that covers a whole account (`collections = "all"`), on a fresh server of each kind:
/// every calendar becomes a folder, a new folder becomes a calendar, and a calendar deleted on
/// the server is reported and left alone here.
@Suite(.timeLimit(.minutes(10))) struct AccountPairTests {
    /// An account's first pull stopped by SIGTERM while its calendars are written (each
    /// stops at its own safe point, none is cut mid-request), then a third of each calendar's
    /// events deleted and a third edited on the server: the next sync brings none of the
    /// deleted back and undoes no edit, in every calendar.
    @Test func aStoppedAccountPullThenServerChanges() async throws {
        let server = try TestServers.start(TestServers.any())
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let id = account.id
        var calendars: [(folder: String, url: URL, uids: [String])] = []
        for label in ["home", "work"] {
            let folder = "\(label)-\(id)"
            let url = try await account.makeCalendar(folder)
            let uids = (0..<24).map { "\(label)\($0)-\(id)" }
            for uid in uids {
                try await account.put(
                    TestEvent.ics(uid: uid, summary: "v1", start: "20260301T100000Z", duration: "PT1H"),
                    name: uid, in: url)
            }
            calendars.append((folder, url, uids))
        }
        let stopped = try await CalgwBinary.run(
            ["sync", "--config", account.config.path],
            environment: [
                "CALGW_TEST_PASSWORD": server.password, "CALGW_TEST_KILL_AFTER": "16",
                "CALGW_TEST_SIGNAL": "TERM",
            ])
        #expect(stopped.status == 143, "\(stopped.status) \(stopped.stderrText)")
        #expect(stopped.stderrText.contains("stopped by SIGTERM at a safe point"), "\(stopped.stderrText)")
        var expected: [String: [String: String]] = [:]
        for calendar in calendars {
            var summaries: [String: String] = [:]
            for (i, uid) in calendar.uids.enumerated() {
                switch i % 3 {
                case 0:
                    #expect(
                        try await account.curl([
                            "-X", "DELETE", calendar.url.appendingPathComponent("\(uid).ics").absoluteString,
                        ]).status == 0)
                case 1:
                    try await account.put(
                        TestEvent.ics(
                            uid: uid, summary: "edited on the phone", start: "20260301T100000Z", duration: "PT1H"),
                        name: uid, in: calendar.url)
                    summaries[uid] = "edited on the phone"
                default: summaries[uid] = "v1"
                }
            }
            expected[calendar.folder] = summaries
        }
        let rerun = try await account.calgw(["sync"])
        #expect(rerun.status == 0, "\(rerun.stderrText)")
        for calendar in calendars {
            let found = try VDirPair.summariesIn(account.local.appendingPathComponent(calendar.folder))
            #expect(
                found == expected[calendar.folder],
                "\(calendar.folder): \(found.count) events, \(expected[calendar.folder]?.count ?? 0) expected")
        }
        let again = try await account.calgw(["sync", "--json"])
        #expect(again.status == 0 && JSONCounts.writes(in: again.stdoutText) == 0, "\(again.stdoutText)")
    }

    @Test(arguments: TestServers.selected)
    func everyCalendarOfTheAccountSyncs(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let id = account.id, local = account.local
        var team: URL?
        for label in ["Work", "Team"] {
            let calendar = try await account.makeCalendar("\(label.lowercased())-\(id)")
            if label == "Team" { team = calendar }
            try await account.put(
                TestEvent.ics(
                    uid: "\(label.lowercased())-\(id)", summary: "\(label) event", start: "20260301T100000Z",
                    duration: "PT1H"),
                name: "\(label)-\(id)", in: calendar)
        }

        var r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        for label in ["work", "team"] {
            let files = account.files("\(label)-\(id)")
            #expect(files.contains("\(label)-\(id).ics"), "\(name): \(label)-\(id)/ holds \(files)")
        }

        // A folder made here becomes a calendar there, with its display name and its event.
        let family = local.appendingPathComponent("family-\(id)")
        try FileManager.default.createDirectory(at: family, withIntermediateDirectories: true)
        try Data("Family\n".utf8).write(to: family.appendingPathComponent("displayname"))
        try Data(
            TestEvent.ics(uid: "family-\(id)", summary: "Family event", start: "20260301T100000Z", duration: "PT1H")
                .utf8
        )
        .write(to: family.appendingPathComponent("family.ics"))
        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let listing = try await account.curl([
            "-X", "PROPFIND", "-H", "Depth: 1", server.home.appendingPathComponent("family-\(id)/").absoluteString,
        ])
        #expect(
            listing.stdoutText.contains(".ics"),
            "\(name): the new calendar holds no event: \(listing.stdoutText.prefix(500))")

        // Nothing left to do, and status says so.
        r = try await account.calgw(["status", "--json"])
        #expect(
            r.status == 0 && JSONCounts.writes(in: r.stdoutText) == 0,
            "\(name): status reports pending changes: \(r.stdoutText) \(r.stderrText)")
        r = try await account.calgw(["sync", "--json"])
        #expect(
            r.status == 0 && JSONCounts.writes(in: r.stdoutText) == 0,
            "\(name): a second sync did something: \(r.stdoutText)")

        // A calendar deleted on the server: reported, its folder and event left here.
        _ = try await account.curl(["-X", "DELETE", try #require(team).absoluteString])
        r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(r.stderrText.contains("team-\(id)"), "\(name): the deleted calendar was not reported: \(r.stderrText)")
        #expect(FileManager.default.fileExists(atPath: local.appendingPathComponent("team-\(id)/team-\(id).ics").path))
    }
}
