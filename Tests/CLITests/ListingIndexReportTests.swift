import Foundation
import Testing
import CalgwTestSupport

/// A command that read every file because its listing index was started again says why with
/// `-v`; `-vv` says how many files the index vouched for.
@Suite struct ListingIndexReportTests {
    @Test func aDamagedIndexSaysWhyAndAFreshOneHowManyFilesItSpared() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        // Written an hour ago: nothing within the racy margin, so the index may vouch for all.
        let past = Date(timeIntervalSinceNow: -3600)
        for i in 0..<3 {
            let file = vdir.appendingPathComponent("e\(i).ics")
            try Data(TestEvent.ics(uid: "e\(i)", summary: "Event \(i)").utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
        }
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: vdir.path)
        let environment = ["XDG_CACHE_HOME": folder.file("cache").path, "TZ": "UTC"]
        func list(_ verbosity: String) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                ["list", "--local", vdir.path, "--from", "2026-03-01", "--to", "2026-04-01", verbosity],
                environment: environment)
        }

        let first = try await list("-v")
        #expect(first.status == 0 && first.stdoutText.contains("Event 2"), "\(first.stderrText)")
        #expect(!first.stderrText.contains("listing index"), "none was kept yet: \(first.stderrText)")

        let second = try await list("-vv")
        #expect(second.stdoutText == first.stdoutText)
        #expect(second.stderrText.contains("listing index files=3 fresh="), "\(second.stderrText)")
        #expect(!second.stderrText.contains("started again"), "\(second.stderrText)")

        // A byte in the middle of the index flipped: its checksum fails, and the run says so.
        let indexes = folder.file("cache/calgw/list")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: indexes.path).first { $0.hasSuffix(".index") })
        var bytes = try Data(contentsOf: indexes.appendingPathComponent(name))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: indexes.appendingPathComponent(name))
        let third = try await list("-v")
        #expect(third.stdoutText == first.stdoutText)
        #expect(
            third.stderrText.contains("listing index started again") && third.stderrText.contains("checksum"),
            "\(third.stderrText)")
    }
}
