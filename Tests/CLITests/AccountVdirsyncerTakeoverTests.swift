import Foundation
import Testing
import CalgwTestSupport

/// vdirsyncer (`collections = ["from b"]`) syncs a whole account first; a calgw account pair on
/// the same folders then takes over without transferring or duplicating anything.
@Suite(.timeLimit(.minutes(10))) struct AccountVdirsyncerTakeoverTests {
    func vdirsyncer(_ account: AccountFixture, _ arguments: [String]) async throws -> ProcessRunner.Result {
        let config = account.folder.file("vdirsyncer.conf")
        try Data(
            """
            [general]
            status_path = "\(account.folder.file("vdirsyncer-status").path)/"

            [pair account]
            a = "account_local"
            b = "account_remote"
            collections = ["from b"]

            [storage account_local]
            type = "filesystem"
            path = "\(account.local.path)/"
            fileext = ".ics"

            [storage account_remote]
            type = "caldav"
            url = "\(account.server.home.absoluteString)"
            username = "\(account.server.username)"
            password.fetch = ["command", "printenv", "CALGW_TEST_DAV_PASSWORD"]
            """.utf8
        ).write(to: config)
        return try await ProcessRunner.run(
            "vdirsyncer", ["-c", config.path] + arguments, stdin: Data(String(repeating: "y\n", count: 20).utf8),
            environment: ["CALGW_TEST_DAV_PASSWORD": account.server.password])
    }

    @Test(arguments: TestServers.selected)
    func calgwTakesOverAnAccountSyncedByVdirsyncer(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let proxy = try TestProxies.fault(upstream: server.url, script: "")
        defer { proxy.stop() }
        let account = try AccountFixture(server: server, remote: proxy.proxied(server.home))
        defer { account.remove() }
        try FileManager.default.createDirectory(at: account.local, withIntermediateDirectories: true)
        let names = ["personal-\(account.id)", "work-\(account.id)", "chores-\(account.id)"]
        for (index, calendarName) in names.enumerated() {
            let url = try await account.makeCalendar(calendarName)
            for n in 0..<3 {
                let uid = "\(calendarName)-\(n)"
                let item =
                    index == 2
                    ? AccountFixture.todo(uid, "Chore \(n)")
                    : TestEvent.ics(uid: uid, summary: "Event \(n)", start: "20260301T100000Z", duration: "PT1H")
                try await account.put(item, name: uid, in: url)
            }
        }
        var r = try await vdirsyncer(account, ["discover"])
        #expect(r.status == 0, "\(name): vdirsyncer discover: \(r.stdoutText) \(r.stderrText)")
        r = try await vdirsyncer(account, ["sync"])
        #expect(r.status == 0, "\(name): vdirsyncer sync: \(r.stdoutText) \(r.stderrText)")
        let before = Dictionary(uniqueKeysWithValues: account.subfolders().map { ($0, account.files($0)) })
        for calendarName in names {
            #expect(before[calendarName]?.count == 3, "\(name): vdirsyncer left \(before)")
        }

        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(AccountFixture.allZero(r.stdoutText), "\(name): the takeover transferred something: \(r.stdoutText)")
        let writes = proxy.logEntries().filter {
            ["PUT", "DELETE", "MKCALENDAR", "PROPPATCH"].contains($0["method"] as? String ?? "")
        }
        #expect(writes.isEmpty, "\(name): the takeover wrote to the server: \(writes)")
        let after = Dictionary(uniqueKeysWithValues: account.subfolders().map { ($0, account.files($0)) })
        #expect(after == before, "\(name): files changed: \(before) → \(after)")
        for calendarName in names {
            #expect(
                account.mapping()[calendarName] != nil, "\(name): \(calendarName) not taken over: \(account.mapping())")
        }
        // vdirsyncer still sees nothing to do.
        r = try await vdirsyncer(account, ["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let again = Dictionary(uniqueKeysWithValues: account.subfolders().map { ($0, account.files($0)) })
        #expect(again == before, "\(name): \(again)")
    }
}
