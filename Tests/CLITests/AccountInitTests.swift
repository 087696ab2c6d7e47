import Foundation
import Testing
import CalgwTestSupport

/// `calgw init --all-collections` discovers a real server's calendars, prints them and writes
/// an account pair that then syncs.
@Suite(.timeLimit(.minutes(10))) struct AccountInitTests {
    @Test(arguments: TestServers.selected)
    func initWritesAnAccountPairAndListsTheCalendars(server name: String) throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let id = UUID().uuidString.prefix(6).lowercased()
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let work = try account.makeCalendar("work-\(id)", displayName: "Work \(id)")
        try account.put(AccountFixture.event("w-\(id)", "Work"), name: "w", in: work)
        try account.makeCalendar("tasks-\(id)", displayName: "Tasks \(id)", components: ["VTODO"])

        let config = folder.file("config.toml"), local = folder.file("calendars")
        let environment = ["CALGW_TEST_PASSWORD": server.password, "XDG_STATE_HOME": folder.file("state").path]
        var r = try CalgwBinary.run(["init", "--all-collections", "--pair", "acct", "--remote", server.home.absoluteString,
                                     "--local", local.path, "--username", server.username,
                                     "--password-command", "printenv CALGW_TEST_PASSWORD", "--config", config.path],
                                    environment: environment)
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(r.stdoutText.contains("work-\(id)/ → ") && r.stdoutText.contains("Work \(id)"), "\(name): \(r.stdoutText)")
        #expect(r.stdoutText.contains("tasks-\(id)/ → ") && r.stdoutText.contains("VTODO"), "\(name): \(r.stdoutText)")
        let text = try String(contentsOf: config, encoding: .utf8)
        #expect(text.contains("[pair.acct]") && text.contains("collections = \"all\""), "\(name): \(text)")

        r = try CalgwBinary.run(["sync", "--json", "--config", config.path], environment: environment)
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let synced = (try? FileManager.default.contentsOfDirectory(atPath: local.appendingPathComponent("work-\(id)").path)) ?? []
        #expect(synced.contains("w-\(id).ics"), "\(name): \(synced)")
        #expect(FileManager.default.fileExists(atPath: local.appendingPathComponent("tasks-\(id)").path), "\(name)")

        // --json lists the same calendars.
        r = try CalgwBinary.run(["init", "--all-collections", "--pair", "again", "--remote", server.home.absoluteString,
                                 "--local", folder.file("other").path, "--username", server.username,
                                 "--password-env", "CALGW_TEST_PASSWORD", "--config", config.path, "--json"], environment: environment)
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let names = (object?["collections"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(names.contains("work-\(id)") && names.contains("tasks-\(id)"), "\(name): \(r.stdoutText)")
    }
}
