import Foundation
import Testing
import CalgwTestSupport

/// `calgw sync`, `push` and `status` on a vdir with a broken hand edit, against a real Radicale:
/// the file is named at its line with a hint, the rest syncs, and the run exits 1.
@Suite(.serialized) struct HandEditCommandTests {
    @Test func brokenFileIsReportedAtItsLineAndTheRestSyncs() throws {
        let server = try TestServers.shared("radicale")
        let collection = server.newCollectionURL(prefix: "handcli")
        let made = try ProcessRunner.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(server.username):\(server.password)",
                                                  "-X", "MKCALENDAR", collection.absoluteString])
        #expect(["201", "200"].contains(made.stdoutText), "MKCALENDAR: \(made.stdoutText)")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try SyncServerScenarioTests().makePair(folder, "p", server: server, collection: collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        let good = SyncServerScenarioTests.event("good-\(id)", "fine")
        // DTEND (line 8) before DTSTART.
        let broken = String(decoding: SyncServerScenarioTests.event("bad-\(id)", "broken"), as: UTF8.self)
            .replacingOccurrences(of: "DTEND:20260310T110000Z", with: "DTEND:20260310T090000Z")
        try good.write(to: pair.vdir.appendingPathComponent("good.ics"))
        try Data(broken.utf8).write(to: pair.vdir.appendingPathComponent("bad.ics"))
        let where_ = pair.vdir.appendingPathComponent("bad.ics").path + ":8: DTEND"

        let status = try pair.run("status", password: server.password)
        #expect(status.stdoutText.contains(where_) || status.stderrText.contains(where_), "\(status.stdoutText)\(status.stderrText)")

        let push = try pair.run("push", password: server.password)
        #expect(push.status == 1, "\(push.stderrText)")
        #expect(push.stderrText.contains(where_) && push.stderrText.contains("before DTSTART"), "\(push.stderrText)")

        let sync = try pair.run("sync", password: server.password)
        #expect(sync.status == 1, "\(sync.stderrText)")
        #expect(sync.stderrText.contains(where_) && sync.stderrText.contains("hint"), "\(sync.stderrText)")
        #expect(try Data(contentsOf: pair.vdir.appendingPathComponent("bad.ics")) == Data(broken.utf8))
        // The good file went up; the broken one did not.
        let listing = try ProcessRunner.run("curl", ["-s", "-u", "\(server.username):\(server.password)", "-X", "PROPFIND", "-H", "Depth: 1",
                                                     collection.absoluteString])
        #expect(listing.stdoutText.components(separatedBy: ".ics").count - 1 == 1, "\(listing.stdoutText)")

        try SyncServerScenarioTests.event("bad-\(id)", "fixed").write(to: pair.vdir.appendingPathComponent("bad.ics"))
        let fixed = try pair.run("sync", password: server.password)
        #expect(fixed.status == 0, "\(fixed.stderrText)")
    }
}
