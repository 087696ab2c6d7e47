import Foundation
import Testing
import CalgwTestSupport

/// A pair that covers a whole account (`collections = "all"`), on a fresh server of each kind:
/// every calendar becomes a folder, a new folder becomes a calendar, and a calendar deleted on
/// the server is reported and left alone here.
@Suite struct AccountPairTests {
    @Test(arguments: TestServers.selected)
    func everyCalendarOfTheAccountSyncs(server name: String) throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let id = account.id, local = account.local
        var team: URL?
        for label in ["Work", "Team"] {
            let calendar = try account.makeCalendar("\(label.lowercased())-\(id)")
            if label == "Team" { team = calendar }
            try account.put(AccountFixture.event("\(label.lowercased())-\(id)", "\(label) event"), name: "\(label)-\(id)", in: calendar)
        }

        var r = try account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        for label in ["work", "team"] {
            let files = account.files("\(label)-\(id)")
            #expect(files.contains("\(label)-\(id).ics"), "\(name): \(label)-\(id)/ holds \(files)")
        }

        // A folder made here becomes a calendar there, with its display name and its event.
        let family = local.appendingPathComponent("family-\(id)")
        try FileManager.default.createDirectory(at: family, withIntermediateDirectories: true)
        try Data("Family\n".utf8).write(to: family.appendingPathComponent("displayname"))
        try Data(AccountFixture.event("family-\(id)", "Family event").utf8).write(to: family.appendingPathComponent("family.ics"))
        r = try account.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let listing = try account.curl(["-X", "PROPFIND", "-H", "Depth: 1", server.home.appendingPathComponent("family-\(id)/").absoluteString])
        #expect(listing.stdoutText.contains(".ics"), "\(name): the new calendar holds no event: \(listing.stdoutText.prefix(500))")

        // Nothing left to do, and status says so.
        r = try account.calgw(["status", "--json"])
        #expect(r.status == 0 && JSONCounts.writes(in: r.stdoutText) == 0,
                "\(name): status reports pending changes: \(r.stdoutText) \(r.stderrText)")
        r = try account.calgw(["sync", "--json"])
        #expect(r.status == 0 && JSONCounts.writes(in: r.stdoutText) == 0,
                "\(name): a second sync did something: \(r.stdoutText)")

        // A calendar deleted on the server: reported, its folder and event left here.
        _ = try account.curl(["-X", "DELETE", try #require(team).absoluteString])
        r = try account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(r.stderrText.contains("team-\(id)"), "\(name): the deleted calendar was not reported: \(r.stderrText)")
        #expect(FileManager.default.fileExists(atPath: local.appendingPathComponent("team-\(id)/team-\(id).ics").path))
    }
}
