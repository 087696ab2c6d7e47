import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// `-q` prints errors only: what a run skips is a warning, shown without `-q` and not with it.
@Suite struct QuietOutputTests {
    @Test func quietLeavesOutWarnings() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        try pair.write(pair.remote, "broken.ics", Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:b\r\n".utf8))

        let loud = try await pair.run("sync")
        #expect(loud.status == 0, "\(loud.stderrText)")
        #expect(loud.stderrText.contains("warning:") && loud.stderrText.contains("broken.ics"), "\(loud.stderrText)")

        try pair.write(pair.local, "c.ics", TestEvent.data(uid: "c", summary: "local"))
        let quiet = try await pair.run("sync", ["-q"])
        #expect(quiet.status == 0, "\(quiet.stderrText)")
        #expect(quiet.stderrText.isEmpty, "-q printed: \(quiet.stderrText)")
        #expect(quiet.stdoutText.isEmpty, "-q printed: \(quiet.stdoutText)")
        #expect(try pair.summaries(pair.remote)["c"] == "local", "the quiet run did not sync")
    }
}
