import Foundation
import Testing
import CalgwTestSupport

/// `calgw sync`, `push` and `status` on a vdir with a broken hand edit or two files with one UID,
/// against each real server: the file is named at its line (or both files are) with a hint,
/// the rest syncs, and the run exits 1.
@Suite(.timeLimit(.minutes(10))) struct HandEditCommandTests {
    @Test(arguments: TestServers.selected)
    func brokenFileIsReportedAtItsLineAndTheRestSyncs(server name: String) async throws {
        let server = try TestServers.shared(name)
        let collection = server.newCollectionURL(prefix: "handcli")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "p", server: server, collection: collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        let good = TestEvent.data(uid: "good-\(id)", summary: "fine", end: "20260310T110000Z", location: "Room 1")
        // DTEND (line 8) before DTSTART.
        let broken = String(
            decoding: TestEvent.data(uid: "bad-\(id)", summary: "broken", end: "20260310T110000Z", location: "Room 1"),
            as: UTF8.self
        )
        .replacingOccurrences(of: "DTEND:20260310T110000Z", with: "DTEND:20260310T090000Z")
        try good.write(to: pair.vdir.appendingPathComponent("good.ics"))
        try Data(broken.utf8).write(to: pair.vdir.appendingPathComponent("bad.ics"))
        let where_ = pair.vdir.appendingPathComponent("bad.ics").path + ":8: DTEND"

        // status prints the whole status, then the problem as an error, and exits 1.
        let status = try await pair.run("status", password: server.password)
        #expect(status.status == 1, "\(status.stdoutText)\(status.stderrText)")
        #expect(status.stdoutText.contains("to create"), "\(status.stdoutText)")
        #expect(status.stderrText.contains("error: p: " + where_), "\(status.stderrText)")
        let statusJSON = try await pair.run("status", ["--json"], password: server.password)
        #expect(statusJSON.status == 1)
        let object = try JSONSerialization.jsonObject(with: statusJSON.stdout) as? [String: Any]
        #expect((object?["errors"] as? [String])?.contains { $0.hasPrefix(where_) } == true, "\(statusJSON.stdoutText)")

        let push = try await pair.run("push", password: server.password)
        #expect(push.status == 1, "\(push.stderrText)")
        #expect(push.stderrText.contains(where_) && push.stderrText.contains("before DTSTART"), "\(push.stderrText)")

        let sync = try await pair.run("sync", password: server.password)
        #expect(sync.status == 1, "\(sync.stderrText)")
        #expect(sync.stderrText.contains(where_) && sync.stderrText.contains("hint"), "\(sync.stderrText)")
        #expect(try Data(contentsOf: pair.vdir.appendingPathComponent("bad.ics")) == Data(broken.utf8))
        // The good file went up; the broken one did not.
        let items = try await server.itemHrefs(in: collection)
        #expect(items.count == 1, "\(items)")

        try TestEvent.data(uid: "bad-\(id)", summary: "fixed", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("bad.ics"))
        let fixed = try await pair.run("sync", password: server.password)
        #expect(fixed.status == 0, "\(fixed.stderrText)")
    }

    @Test(arguments: TestServers.selected)
    func twoFilesWithOneUIDFailTheRunAfterTheRestIsSynced(server name: String) async throws {
        let server = try TestServers.shared(name)
        let collection = server.newCollectionURL(prefix: "dupcli")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "d", server: server, collection: collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        try TestEvent.data(uid: "same-\(id)", summary: "original", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("a.ics"))
        try TestEvent.data(uid: "same-\(id)", summary: "the copy", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("copy.ics"))
        try TestEvent.data(uid: "other-\(id)", summary: "fine", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("other.ics"))
        let a = pair.vdir.appendingPathComponent("a.ics").path, copy = pair.vdir.appendingPathComponent("copy.ics").path

        let status = try await pair.run("status", password: server.password)
        #expect(status.status == 1, "\(status.stderrText)")
        #expect(status.stderrText.contains(a) && status.stderrText.contains(copy), "\(status.stderrText)")

        for command in ["push", "sync"] {
            let run = try await pair.run(command, password: server.password)
            #expect(run.status == 1, "\(command): \(run.stderrText)")
            #expect(
                run.stderrText.contains("error: d: ") && run.stderrText.contains(a) && run.stderrText.contains(copy),
                "\(run.stderrText)")
            #expect(run.stderrText.contains("hint"), "\(run.stderrText)")
        }
        // The other event went up; neither copy did.
        #expect(try await server.uids(in: collection) == ["other-\(id)"])

        // Resolved by giving the copy its own UID: everything goes up, exit 0.
        try TestEvent.data(uid: "copy-\(id)", summary: "the copy", end: "20260310T110000Z", location: "Room 1")
            .write(to: pair.vdir.appendingPathComponent("copy.ics"))
        let fixed = try await pair.run("sync", password: server.password)
        #expect(fixed.status == 0, "\(fixed.stderrText)")
        #expect(try await pair.run("status", password: server.password).status == 0)
    }
}
