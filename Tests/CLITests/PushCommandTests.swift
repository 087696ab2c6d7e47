import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

@Suite struct PushCommandTests {
    @Test func pushWritesOnlyTheServer() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        try pair.write(pair.remote, "b.ics", TestEvent.data(uid: "b", summary: "remote"))
        let result = try await pair.run("push")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("remote: 1 created"))
        #expect(try pair.summaries(pair.local) == ["a": "local"])
        #expect(try pair.summaries(pair.remote) == ["a": "local", "b": "remote"])
        let dry = try await pair.run("pull", ["--dry-run"])
        #expect(dry.stdoutText.contains("local: 1 created"))
        #expect(try pair.summaries(pair.local) == ["a": "local"])
    }
}
