import Foundation
import Testing
import CalgwTestSupport

/// An account pair's new folders when answers are lost on the way back: the server made the
/// calendar, the connection dropped before its answer, and a second MKCALENDAR is refused
/// because the calendar exists. That calendar is the folder's; a refusal is believed only of an
/// href that stayed empty, and only for its own folder.
@Suite(.timeLimit(.minutes(10))) struct AccountLostAnswerTests {
    /// Three new folders, half of all answers lost (every other request's, whatever its
    /// method): runs are repeated until one ends cleanly, and then every folder has its
    /// calendar on the server, holding its events, as a second machine pulling the account sees.
    @Test(arguments: TestServers.selected)
    func newFoldersGetTheirCalendarsWhenHalfTheAnswersAreLost(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let proxy = try TestProxies.fault(upstream: server.url, script: "ok,lose", repeats: true)
        defer { proxy.stop() }
        let account = try AccountFixture(server: server, remote: proxy.proxied(server.home))
        defer { account.remove() }
        let folders = ["a", "b", "c"].map { "team7\($0)-\(account.id)" }
        var uids: [String: [String]] = [:]
        for folder in folders {
            let url = account.local.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            uids[folder] = (1...2).map { "\(folder)-\($0)" }
            for uid in uids[folder]! {
                try TestEvent.data(uid: uid, summary: uid, end: "20260312T110000Z")
                    .write(to: url.appendingPathComponent("\(uid).ics"))
            }
        }
        var runs: [ProcessRunner.Result] = []
        repeat {
            runs.append(try await account.calgw(["sync"]))
        } while runs.last!.status != 0 && runs.count < 12
        let said = runs.map { "exit \($0.status): \($0.stdoutText) \($0.stderrText)" }.joined(separator: "\n---\n")
        #expect(runs.last?.status == 0, "\(name): no run ended cleanly in \(runs.count):\n\(said)")
        #expect(!said.contains("stays in the vdir"), "\(name): a lost answer was taken for a refusal:\n\(said)")
        let lost = proxy.logEntries().filter { ($0["action"] as? String) == "lose" }
        #expect(lost.contains { ($0["method"] as? String) == "MKCALENDAR" }, "\(name): no MKCALENDAR lost its answer")
        // The server's own calendars (Cyrus's Default, Xandikos's calendar) are mapped too.
        #expect(Set(folders).isSubset(of: account.mapping().keys), "\(name): \(account.mapping())")
        print("\(name): \(runs.count) run(s), \(lost.count) answer(s) lost")

        // Another machine pulling the account straight from the server finds every folder's events.
        let other = try AccountFixture(server: server)
        defer { other.remove() }
        let pulled = try await other.calgw(["sync"])
        #expect(pulled.status == 0, "\(name): \(pulled.stderrText)")
        for folder in folders {
            #expect(
                other.files(folder) == uids[folder]!.map { "\($0).ics" }.sorted(),
                "\(name): \(folder) on the server: \(other.files(folder)) (folders: \(other.subfolders()))")
        }
        // And the first machine, through the same lossy link, has nothing left to do.
        var settled: ProcessRunner.Result
        var tries = 0
        repeat {
            settled = try await account.calgw(["sync", "--json"])
            tries += 1
        } while settled.status != 0 && tries < 4
        #expect(
            settled.status == 0 && AccountFixture.allZero(settled.stdoutText),
            "\(name): \(settled.stdoutText) \(settled.stderrText)")
    }

    /// A refusal of an href that stays empty (the server answers 403 and makes nothing) is said
    /// of that folder alone: the other new folders get their calendars in the same run, and a
    /// later run asks again only for folders not refused before.
    @Test func aRefusalIsSaidOfItsFolderAlone() async throws {
        let server = try TestServers.start(TestServers.any())
        defer { server.stop() }
        let proxy = try TestProxies.fault(upstream: server.url, script: "403", onlyMethods: "MKCALENDAR")
        defer { proxy.stop() }
        let account = try AccountFixture(server: server, remote: proxy.proxied(server.home))
        defer { account.remove() }
        let folders = ["a", "b", "c"].map { "room-\($0)-\(account.id)" }
        for folder in folders {
            let url = account.local.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try TestEvent.data(uid: folder, summary: folder, end: "20260312T110000Z")
                .write(to: url.appendingPathComponent("\(folder).ics"))
        }
        var r = try await account.calgw(["sync"])
        let said = r.stdoutText + r.stderrText
        #expect(r.status == 0, "\(said)")
        #expect(said.contains("new folder \(folders[0])/ stays in the vdir"), "\(said)")
        #expect(said.contains("MKCALENDAR answered 403"), "\(said)")
        for folder in folders.dropFirst() {
            #expect(!said.contains("new folder \(folder)/ stays in the vdir"), "\(said)")
        }
        // The server's own calendars (DAViCal's admin screen makes one for each user) aside.
        let ours = { Set(account.mapping().keys.filter { $0.contains(account.id) }) }
        #expect(ours() == Set(folders.dropFirst()), "\(account.mapping())")
        let asked = proxy.logEntries().filter { ($0["method"] as? String) == "MKCALENDAR" }.count
        #expect(asked == 3, "MKCALENDAR asked \(asked) times")

        // A fourth folder later is asked for; the refused one is not asked again.
        let later = "room-d-\(account.id)"
        let laterURL = account.local.appendingPathComponent(later)
        try FileManager.default.createDirectory(at: laterURL, withIntermediateDirectories: true)
        try TestEvent.data(uid: later, summary: later, end: "20260312T110000Z")
            .write(to: laterURL.appendingPathComponent("\(later).ics"))
        r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect((r.stdoutText + r.stderrText).contains("new folder \(folders[0])/ stays in the vdir"))
        let paths = proxy.logEntries().filter { ($0["method"] as? String) == "MKCALENDAR" }.compactMap {
            $0["path"] as? String
        }
        #expect(paths.count == 4 && paths.last?.contains(later) == true, "\(paths)")
        #expect(ours() == Set(folders.dropFirst() + [later]), "\(account.mapping())")
    }
}
