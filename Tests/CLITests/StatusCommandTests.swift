import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

@Suite struct StatusCommandTests {
    @Test func statusShowsPendingAndChangesNothing() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        let before = try await pair.run("status", ["--json"])
        #expect(before.status == 0, "\(before.stderrText)")
        var json = try pair.json(before)
        #expect(json["lastSync"] == nil || json["lastSync"] is NSNull)
        let pending = try #require(json["pending"] as? [String: [String: Int]])
        #expect(pending["created"] == ["local": 0, "remote": 1])
        #expect(try pair.summaries(pair.remote).isEmpty)
        #expect(try await pair.run("sync").status == 0)
        json = try pair.json(try await pair.run("status", ["--json"]))
        #expect(json["lastSync"] is String)
        #expect(json["synced"] as? Int == 1)
        let text = try await pair.run("status")
        #expect(text.stdoutText.contains("1 items synced"))
    }

    @Test func unknownPairIsAConfigError() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        let result = try await pair.run("status", ["--pair", "nope"])
        #expect(result.status == 2)
        #expect(result.stderrText.contains("no pair named"))
    }
}

@Suite struct AllPairsTests {
    @Test func allRunsEveryPairAndPrintsOneJSONArray() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        let second = pair.folder.file("second")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let extra = """

            [pair.other]
            local = "\(second.path)"
            remote = "file://\(pair.folder.file("second-remote").path)"
            journal = "\(pair.folder.file("state/other.sqlite").path)"
            """
        let handle = try FileHandle(forWritingTo: pair.config)
        handle.seekToEndOfFile()
        handle.write(Data(extra.utf8))
        try handle.close()
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "x"))
        try pair.write(second, "b.ics", TestEvent.data(uid: "b", summary: "y"))
        let ambiguous = try await pair.run("sync")
        #expect(ambiguous.status == 2)
        let result = try await pair.run("sync", ["--all", "--json"])
        #expect(result.status == 0, "\(result.stderrText)")
        let array = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(array.compactMap { $0["pair"] as? String }.sorted() == ["other", "test"])
        #expect(array.allSatisfy { ($0["created"] as? [String: Int])?["remote"] == 1 })
    }
}
