import Foundation
import Testing
import CalgwTestSupport

/// What a run says when the server refuses: the credentials (401) once, and a full account
/// (507) with a hint about its quota.
@Suite(.timeLimit(.minutes(10))) struct ServerRefusalMessageTests {
    func makeCollection(_ server: TestServer, prefix: String) async throws -> URL {
        let collection = server.newCollectionURL(prefix: prefix)
        try await server.makeCalendar(collection)
        return collection
    }

    @Test func refusedCredentialsAreSaidOnce() async throws {
        let server = try TestServers.shared(TestServers.any())
        let collection = try await makeCollection(server, prefix: "auth")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "auth", server: server, collection: collection)
        let r = try await pair.run("sync", password: "not-the-password")
        #expect(r.status == 5, "\(r.stdoutText) \(r.stderrText)")
        let said = r.stderrText.components(separatedBy: "refused the credentials").count - 1
        #expect(said == 1, "said \(said) times: \(r.stderrText)")
    }

    @Test func insufficientStorageOnAPutGivesAQuotaHint() async throws {
        let server = try TestServers.shared(TestServers.any())
        let collection = try await makeCollection(server, prefix: "full")
        let proxy = try TestProxies.fault(upstream: server.url, script: "507", onlyMethods: "PUT")
        defer { proxy.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "full", server: server, collection: proxy.proxied(collection))
        try TestEvent.data(uid: "big", summary: "v1", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("big.ics"))
        var r = try await pair.run("sync", password: server.password)
        #expect(r.status == 1, "\(r.stdoutText) \(r.stderrText)")
        #expect(proxy.logEntries().contains { ($0["action"] as? String) == "507" }, "the proxy never answered 507")
        #expect(r.stderrText.contains("507"), "\(r.stderrText)")
        #expect(r.stderrText.contains("out of space or over quota"), "no quota hint: \(r.stderrText)")
        // The item stays pending, and goes up once the server has room again.
        r = try await pair.run("sync", password: server.password)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText.contains("remote: 1 created"), "\(r.stdoutText)")
    }
}
