import Foundation
import Testing
import CalgwTestSupport

/// What a no-op sync of a whole account costs the server, counted at a logging proxy: one
/// PROPFIND Depth 1 of the calendar home (kept from the first run's discovery) tells which
/// calendars changed, and an unchanged calendar costs nothing more.
@Suite(.timeLimit(.minutes(10))) struct AccountRequestCountTests {
    @Test(arguments: TestServers.selected)
    func aNoOpAccountSyncAsksTheHomeOnce(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let proxy = try TestProxies.fault(upstream: server.url, script: "")
        defer { proxy.stop() }
        let account = try AccountFixture(server: server, remote: proxy.proxied(server.home))
        defer { account.remove() }
        for label in ["one", "two", "three"] {
            let calendar = try await account.makeCalendar("\(label)-\(account.id)")
            try await account.put(
                TestEvent.ics(
                    uid: "\(label)-\(account.id)", summary: label, start: "20260301T100000Z", duration: "PT1H"),
                name: label, in: calendar)
        }
        for _ in 0..<2 {
            let r = try await account.calgw(["sync"])
            #expect(r.status == 0, "\(name): \(r.stderrText)")
        }
        let settled = proxy.logEntries().count
        let r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(name): \(r.stdoutText) \(r.stderrText)")
        let noOp = Array(proxy.logEntries().dropFirst(settled))
        let collections = account.mapping().count
        #expect(collections >= 3, "\(name): \(account.mapping())")
        let lines = noOp.map { "\($0["method"] ?? "") \($0["path"] ?? "") \($0["status"] ?? "")" }
        print("no-op account sync on \(name): \(noOp.count) request(s) for \(collections) collections: \(lines)")
        #expect(noOp.count <= 1 + collections, "\(name): \(lines)")
        // The home's listing shows DAViCal's schedule Inbox too, whose token tells whether an
        // answer waits there (see RequestCountTests): still one request.
        #expect(noOp.count == 1, "\(name): a no-op made \(noOp.count) requests: \(lines)")
    }
}
