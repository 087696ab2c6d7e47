import Foundation
import Testing
import CalgwTestSupport

/// `calgw status` while the server cannot be reached: the local changes waiting for a push are
/// still shown, then the error about the remote side.
@Suite(.timeLimit(.minutes(10))) struct StatusUnreachableTests {
    @Test func statusShowsLocalChangesWhenTheServerIsDown() async throws {
        let server = try TestServers.shared(TestServers.any())
        let collection = server.newCollectionURL(prefix: "down")
        try await server.makeCalendar(collection)
        let proxy = try TestProxies.fault(upstream: server.url, script: "")
        defer { proxy.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "down", server: server, collection: proxy.proxied(collection))
        try TestEvent.data(uid: "kept", summary: "v1", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("kept.ics"))
        try TestEvent.data(uid: "gone", summary: "v1", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("gone.ics"))
        var r = try await pair.run("sync", password: server.password)
        #expect(r.status == 0, "\(r.stderrText)")

        // Local changes made while the server is down: one new, one edited, one deleted.
        proxy.stop()
        try TestEvent.data(uid: "new", summary: "v1", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("new.ics"))
        try TestEvent.data(uid: "kept", summary: "v2", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("kept.ics"))
        try FileManager.default.removeItem(at: pair.vdir.appendingPathComponent("gone.ics"))

        r = try await pair.run("status", password: server.password)
        #expect(r.status == 1, "\(r.stdoutText) \(r.stderrText)")
        #expect(r.stdoutText.contains("remote: 1 to create, 1 to update, 1 to delete"), "\(r.stdoutText)")
        #expect(
            !r.stdoutText.contains("0 to create, 0 to update, 0 to delete"),
            "status claims nothing is pending: \(r.stdoutText)")
        #expect(r.stdoutText.contains("not known"), "the server's side is not said to be unknown: \(r.stdoutText)")
        #expect(r.stderrText.contains("error:") && r.stderrText.contains("remote"), "\(r.stderrText)")

        r = try await pair.run("status", ["--json"], password: server.password)
        #expect(r.status == 1, "\(r.stderrText)")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.stdoutText)")
        let pending = try #require(json["pending"] as? [String: [String: Int]], "\(r.stdoutText)")
        #expect(pending["created"] == ["local": 0, "remote": 1])
        #expect(pending["updated"] == ["local": 0, "remote": 1])
        #expect(pending["deleted"] == ["local": 0, "remote": 1])
        #expect(json["unreadable"] as? String == "remote", "\(r.stdoutText)")
        #expect((json["errors"] as? [String])?.isEmpty == false, "\(r.stdoutText)")
    }
}
