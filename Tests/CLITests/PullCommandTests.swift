import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

@Suite struct PullCommandTests {
    @Test func pullWritesOnlyTheVdir() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        try pair.write(pair.remote, "b.ics", TestEvent.data(uid: "b", summary: "remote"))
        let result = try await pair.run("pull", ["--json"])
        #expect(result.status == 0, "\(result.stderrText)")
        let json = try pair.json(result)
        #expect(json["created"] as? [String: Int] == ["local": 1, "remote": 0])
        #expect(json["pending"] as? [String: Int] == ["local": 0, "remote": 1])
        #expect(try pair.summaries(pair.remote) == ["b": "remote"])
        #expect(try pair.summaries(pair.local) == ["a": "local", "b": "remote"])
        // The local item is still pending: a push later sends it.
        #expect(try await pair.run("push").status == 0)
        #expect(try pair.summaries(pair.remote) == ["a": "local", "b": "remote"])
    }

    @Test func aConflictLeftForSyncExitsThree() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try await pair.makeConflict()
        try pair.write(pair.remote, "b.ics", TestEvent.data(uid: "b", summary: "remote"))
        for command in ["pull", "push"] {
            let result = try await pair.run(command, ["--json"])
            #expect(result.status == 3, "\(command): \(result.stderrText)")
            #expect(result.stderrText.contains("calgw sync"), "\(command): no hint to run sync: \(result.stderrText)")
            let conflicts = try #require((try pair.json(result))["conflicts"] as? [[String: String]])
            #expect(conflicts == [["uid": "a", "resolution": "pending"]], "\(command)")
        }
        // What could be pulled was pulled; the conflict is left as it was.
        #expect(try pair.summaries(pair.local) == ["a": "mine", "b": "remote"])
        #expect(try pair.summaries(pair.remote)["a"] == "theirs")
        // A dry run only reports.
        #expect(try await pair.run("pull", ["--dry-run"]).status == 0)
        #expect(try await pair.run("sync").status == 0)
        #expect(try await pair.run("pull").status == 0)
    }
}
