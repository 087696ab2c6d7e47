import Foundation
import Testing
import CalgwTestSupport

/// `calgw sync` between two vdirs and one collection on each real server: edits, deletions and
/// creations on each side reach the other; a conflict on different properties merges; UIDs
/// with `/`, spaces and non-ASCII get safe file names; emptying a vdir is refused.
@Suite(.timeLimit(.minutes(10))) struct SyncServerScenarioTests {
    /// Two pairs, `a` and `b`, on a new collection of `server` (two clients of one calendar).
    func twoPairs(on server: TestServer, prefix: String) async throws -> (
        folder: TemporaryFolder, a: ServerPair, b: ServerPair
    ) {
        let collection = server.newCollectionURL(prefix: prefix)
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        return (
            folder, try ServerPair(folder, "a", server: server, collection: collection),
            try ServerPair(folder, "b", server: server, collection: collection)
        )
    }

    @Test(arguments: TestServers.selected)
    func twoVdirsThroughOneCollection(server name: String) async throws {
        let server = try TestServers.shared(name)
        let (folder, a, b) = try await twoPairs(on: server, prefix: "sync")
        defer { folder.remove() }
        let id = UUID().uuidString.prefix(8).lowercased()
        let uids = (0..<4).map { "ev\($0)-\(id)" } + ["slash/\(id) with space é"]
        for (i, uid) in uids.enumerated() {
            try TestEvent.data(uid: uid, summary: "v1", end: "20260310T110000Z", location: "Room 1")
                .write(to: a.vdir.appendingPathComponent("f\(i).ics"))
        }

        func sync(_ p: ServerPair, _ extra: [String] = []) async throws -> ProcessRunner.Result {
            let r = try await p.run("sync", extra, password: server.password)
            #expect(r.status == 0, "\(name): \(r.stderrText)")
            return r
        }
        _ = try await sync(a)
        _ = try await sync(b)
        let first = try b.summaries()
        #expect(first == Dictionary(uniqueKeysWithValues: uids.map { ($0, "v1") }), "\(name): \(first)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: b.vdir.path).allSatisfy {
                !$0.contains("/") && !$0.contains(" ")
            })

        // Edits on both sides, a deletion on each, a creation on each.
        try TestEvent.data(uid: uids[0], summary: "edited in a", end: "20260310T110000Z", location: "Room 1").write(
            to: try a.file(uid: uids[0]))
        try TestEvent.data(uid: uids[1], summary: "edited in b", end: "20260310T110000Z", location: "Room 1").write(
            to: try b.file(uid: uids[1]))
        try FileManager.default.removeItem(at: try a.file(uid: uids[2]))
        try FileManager.default.removeItem(at: try b.file(uid: uids[3]))
        try TestEvent.data(uid: "new-a-\(id)", summary: "from a", end: "20260310T110000Z", location: "Room 1")
            .write(to: a.vdir.appendingPathComponent("new-a.ics"))
        try TestEvent.data(uid: "new-b-\(id)", summary: "from b", end: "20260310T110000Z", location: "Room 1")
            .write(to: b.vdir.appendingPathComponent("new-b.ics"))
        // A conflict on different properties of the last one.
        try TestEvent.data(uid: uids[4], summary: "title from a", end: "20260310T110000Z", location: "Room 1").write(
            to: try a.file(uid: uids[4]))
        try TestEvent.data(uid: uids[4], summary: "v1", end: "20260310T110000Z", location: "Room from b").write(
            to: try b.file(uid: uids[4]))
        _ = try await sync(a)
        let merged = try await sync(b, ["--json"])
        #expect(merged.stdoutText.contains("\"resolution\" : \"merge\""), "\(name): \(merged.stdoutText)")
        _ = try await sync(a)
        let expected = [
            uids[0]: "edited in a", uids[1]: "edited in b", uids[4]: "title from a",
            "new-a-\(id)": "from a", "new-b-\(id)": "from b",
        ]
        #expect(try a.summaries() == expected, "\(name)")
        #expect(try b.summaries() == expected, "\(name)")
        #expect(try ServerPair.lines(try a.file(uid: uids[4])).contains("LOCATION:Room from b"), "\(name)")
        // Quiet now: nothing more to do on either side.
        for p in [a, b] {
            let r = try await sync(p)
            #expect(
                r.stdoutText.contains(
                    "local: 0 created, 0 updated, 0 deleted; remote: 0 created, 0 updated, 0 deleted"),
                "\(name): \(r.stdoutText)")
        }
        // Emptying a vdir is refused.
        for name in try FileManager.default.contentsOfDirectory(atPath: a.vdir.path) {
            try FileManager.default.removeItem(at: a.vdir.appendingPathComponent(name))
        }
        #expect(try await a.run("sync", password: server.password).status == 4)
        _ = try await sync(b)
        #expect(try b.summaries().count == 5, "\(name): nothing deleted on the server")
    }

    /// `calgw sync` killed (SIGKILL) after each of its side effects in turn; the next run
    /// leaves the vdir and the server equal, every edit present once. The default run kills
    /// after every third side effect, each server from another start, so the servers together
    /// cover each point; the load run kills every server at every point.
    @Test(arguments: TestServers.selected)
    func aKilledSyncIsFinishedByTheNextRun(server name: String) async throws {
        let server = try TestServers.shared(name)
        let step = TestLoad.isOn ? 1 : 3
        var k = 1 + (TestServers.selected.firstIndex(of: name) ?? 0) % step
        while k < 60 {
            let (folder, a, b) = try await twoPairs(on: server, prefix: "kill")
            defer { folder.remove() }
            let id = UUID().uuidString.prefix(8).lowercased()
            for i in 0..<3 {
                try TestEvent.data(uid: "k\(i)-\(id)", summary: "v1", end: "20260310T110000Z", location: "Room 1")
                    .write(to: a.vdir.appendingPathComponent("k\(i).ics"))
            }
            #expect(try await a.run("sync", password: server.password).status == 0)
            #expect(try await b.run("sync", password: server.password).status == 0)
            try TestEvent.data(uid: "k0-\(id)", summary: "edited in a", end: "20260310T110000Z", location: "Room 1")
                .write(to: try a.file(uid: "k0-\(id)"))
            try FileManager.default.removeItem(at: try a.file(uid: "k1-\(id)"))
            try TestEvent.data(uid: "k3-\(id)", summary: "new in a", end: "20260310T110000Z", location: "Room 1")
                .write(to: a.vdir.appendingPathComponent("k3.ics"))
            try TestEvent.data(uid: "k2-\(id)", summary: "edited in b", end: "20260310T110000Z", location: "Room 1")
                .write(to: try b.file(uid: "k2-\(id)"))
            #expect(try await b.run("sync", password: server.password).status == 0)

            let killed = try await CalgwBinary.run(
                ["sync", "--config", a.config.path],
                environment: ["CALGW_TEST_PASSWORD": server.password, "CALGW_TEST_KILL_AFTER": "\(k)"])
            let expected = ["k0-\(id)": "edited in a", "k2-\(id)": "edited in b", "k3-\(id)": "new in a"]
            #expect(try await a.run("sync", password: server.password).status == 0, "\(name) k = \(k)")
            #expect(try await b.run("sync", password: server.password).status == 0, "\(name) k = \(k)")
            #expect(try a.summaries() == expected, "\(name) k = \(k)")
            #expect(try b.summaries() == expected, "\(name) k = \(k)")
            if killed.status == 0 { break }  // k passed the last side effect
            k += step
        }
        #expect(k > 3 && k < 60, "\(name): \(k) side effects")
    }
}
