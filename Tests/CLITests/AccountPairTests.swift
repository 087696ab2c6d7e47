import Foundation
import Testing
import CalgwTestSupport

/// A pair that covers a whole account (`collections = "all"`), on a fresh server of each kind:
/// every calendar becomes a folder, a new folder becomes a calendar, and a calendar deleted on
/// the server is reported and left alone here.
@Suite struct AccountPairTests {
    func curl(_ server: TestServer, _ arguments: [String]) throws -> ProcessRunner.Result {
        try ProcessRunner.run("curl", ["-s", "-u", "\(server.username):\(server.password)"] + arguments)
    }

    func event(_ uid: String, _ summary: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20260301T100000Z\r\nDURATION:PT1H\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    @Test(arguments: TestServers.selected)
    func everyCalendarOfTheAccountSyncs(server name: String) throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let id = UUID().uuidString.prefix(6).lowercased()
        let work = server.home.appendingPathComponent("work-\(id)/"), team = server.home.appendingPathComponent("team-\(id)/")
        for calendar in [work, team] {
            let made = try curl(server, ["-o", "/dev/null", "-w", "%{http_code}", "-X", "MKCALENDAR", calendar.absoluteString])
            #expect(["200", "201"].contains(made.stdoutText), "\(name): MKCALENDAR \(made.stdoutText)")
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (calendar, label) in [(work, "Work"), (team, "Team")] {
            let file = folder.file("\(label).ics")
            try Data(event("\(label.lowercased())-\(id)", "\(label) event").utf8).write(to: file)
            let put = try curl(server, ["-o", "/dev/null", "-w", "%{http_code}", "-T", file.path, "-H", "Content-Type: text/calendar",
                                        calendar.appendingPathComponent("\(label)-\(id).ics").absoluteString])
            #expect(["201", "204"].contains(put.stdoutText), "\(name): PUT \(put.stdoutText)")
        }
        let local = folder.file("calendars")
        let config = folder.file("config.toml")
        try Data("""
            [pair.account]
            local = "\(local.path)"
            remote = "\(server.home.absoluteString)"
            username = "\(server.username)"
            password_env = "CALGW_TEST_PASSWORD"
            journal = "\(folder.file("account.sqlite").path)"
            collections = "all"
            """.utf8).write(to: config)
        func calgw(_ arguments: [String]) throws -> ProcessRunner.Result {
            try CalgwBinary.run(arguments + ["--config", config.path], environment: ["CALGW_TEST_PASSWORD": server.password])
        }

        var r = try calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        for label in ["work", "team"] {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: local.appendingPathComponent("\(label)-\(id)").path)) ?? []
            #expect(files.contains("\(label)-\(id).ics"), "\(name): \(label)-\(id)/ holds \(files)")
        }

        // A folder made here becomes a calendar there, with its display name and its event.
        let family = local.appendingPathComponent("family-\(id)")
        try FileManager.default.createDirectory(at: family, withIntermediateDirectories: true)
        try Data("Family\n".utf8).write(to: family.appendingPathComponent("displayname"))
        try Data(event("family-\(id)", "Family event").utf8).write(to: family.appendingPathComponent("family.ics"))
        r = try calgw(["sync", "--json"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let listing = try curl(server, ["-X", "PROPFIND", "-H", "Depth: 1", server.home.appendingPathComponent("family-\(id)/").absoluteString])
        #expect(listing.stdoutText.contains(".ics"), "\(name): the new calendar holds no event: \(listing.stdoutText.prefix(500))")

        // Nothing left to do, and status says so.
        r = try calgw(["status", "--json"])
        #expect(r.status == 0 && !r.stdoutText.contains("\"local\" : 1") && !r.stdoutText.contains("\"remote\" : 1"),
                "\(name): status reports pending changes: \(r.stdoutText) \(r.stderrText)")
        r = try calgw(["sync", "--json"])
        #expect(r.status == 0 && !r.stdoutText.contains("\"local\" : 1") && !r.stdoutText.contains("\"remote\" : 1"),
                "\(name): a second sync did something: \(r.stdoutText)")

        // A calendar deleted on the server: reported, its folder and event left here.
        _ = try curl(server, ["-X", "DELETE", team.absoluteString])
        r = try calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(r.stderrText.contains("team-\(id)"), "\(name): the deleted calendar was not reported: \(r.stderrText)")
        #expect(FileManager.default.fileExists(atPath: local.appendingPathComponent("team-\(id)/team-\(id).ics").path))
    }
}
