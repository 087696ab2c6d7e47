import Foundation
import Testing
import CalgwTestSupport

/// An account's own writes (a calendar deleted on the server, a folder made for a new
/// calendar, MKCALENDAR for a new folder, the mapping saved) are steps of their own: a run
/// killed after any one of them (SIGKILL, `CALGW_TEST_KILL_AFTER`), then run again, ends as a
/// run that was never killed, and a further run changes nothing.
@Suite(.timeLimit(.minutes(10))) struct AccountStepKillTests {
    @Test func anAccountRunKilledAfterAnyCollectionStepConverges() async throws {
        let server = try TestServers.start(TestServers.any())
        defer { server.stop() }
        var k = 1
        while k < 40 {
            let account = try AccountFixture(server: server)
            defer { account.remove() }
            let id = account.id
            let kept = "kept-\(id)", dropped = "dropped-\(id)", fromServer = "server-\(id)", fromVdir = "vdir-\(id)"
            for name in [kept, dropped] {
                try await account.put(
                    TestEvent.ics(uid: "\(name)-1", summary: name, start: "20260301T100000Z", duration: "PT1H"),
                    name: "\(name)-1", in: try await account.makeCalendar(name))
            }
            #expect(try await account.calgw(["sync"]).status == 0, "k = \(k)")

            // A folder removed, a folder made with an event, a calendar made on the server with one.
            try FileManager.default.removeItem(at: account.local.appendingPathComponent(dropped))
            let newFolder = account.local.appendingPathComponent(fromVdir)
            try FileManager.default.createDirectory(at: newFolder, withIntermediateDirectories: true)
            try Data(
                TestEvent.ics(uid: "\(fromVdir)-1", summary: fromVdir, start: "20260301T100000Z", duration: "PT1H").utf8
            ).write(to: newFolder.appendingPathComponent("\(fromVdir)-1.ics"))
            try await account.put(
                TestEvent.ics(uid: "\(fromServer)-1", summary: fromServer, start: "20260301T100000Z", duration: "PT1H"),
                name: "\(fromServer)-1", in: try await account.makeCalendar(fromServer))

            let killed = try await CalgwBinary.run(
                ["sync", "--allow-collection-delete", "--config", account.config.path],
                environment: ["CALGW_TEST_PASSWORD": server.password, "CALGW_TEST_KILL_AFTER": "\(k)"])
            // The account's own steps come first: the calendar deleted and its journal forgotten,
            // the folder made, the calendar made, the mapping saved.
            if k <= 5 { #expect(killed.status != 0, "k = \(k): the run was not killed at an account step") }
            let rerun = try await account.calgw(["sync", "--allow-collection-delete"])
            #expect(rerun.status == 0, "k = \(k): \(rerun.stderrText)")

            // The server's home is shared by the runs of this test: each looks at its own calendars.
            let mine = { (name: String) in name.hasSuffix(id) }
            let expected = [fromServer, fromVdir, kept].sorted()
            #expect(account.subfolders().filter(mine) == expected, "k = \(k): \(account.subfolders())")
            for name in expected {
                #expect(account.files(name) == ["\(name)-1.ics"], "k = \(k): \(name): \(account.files(name))")
            }
            let mapping = account.mapping()
            #expect(mapping.keys.filter(mine).sorted() == expected, "k = \(k): \(mapping)")
            let home = try await account.curl(["-X", "PROPFIND", "-H", "Depth: 1", server.home.absoluteString])
                .stdoutText
            #expect(!home.contains("/\(dropped)/"), "k = \(k): the dropped calendar is still on the server")
            for name in expected {
                let href = try #require(mapping[name], "k = \(k): \(name) is not mapped")
                #expect(home.contains(href), "k = \(k): \(href) is not on the server")
                let url = try #require(URL(string: href, relativeTo: server.home)?.absoluteURL)
                let listing = try await account.curl(["-X", "PROPFIND", "-H", "Depth: 1", url.absoluteString])
                    .stdoutText
                #expect(
                    listing.components(separatedBy: ".ics</").count - 1 == 1,
                    "k = \(k): \(name) on the server: \(listing.prefix(600))")
            }
            let again = try await account.calgw(["sync", "--json", "--allow-collection-delete"])
            #expect(again.status == 0 && AccountFixture.allZero(again.stdoutText), "k = \(k): \(again.stdoutText)")
            #expect(
                !again.stdoutText.contains("new calendar") && !again.stdoutText.contains("new folder"),
                "k = \(k): \(again.stdoutText)")
            if killed.status == 0 { break }  // k passed the run's last side effect
            k += 1
        }
        // The account's five steps, then the calendars' own writes.
        #expect(k > 5 && k < 40, "\(k) side effects")
    }
}
