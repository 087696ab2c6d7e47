import Foundation
import Testing
import CalgwTestSupport

/// The fake of Graph's calendar endpoints that the Graph tests run against answers as
/// Microsoft's own Python SDK (msgraph-sdk, pinned in Scripts/graph/requirements.txt) expects
/// Graph to: `Scripts/graph/check` runs the same operations through the SDK against a fresh
/// fake and fails on any answer the SDK cannot take.
@Suite(.timeLimit(.minutes(10))) struct GraphFakeFidelityTests {
    @Test func microsoftsGraphClientReadsEveryAnswerOfTheFake() async throws {
        let check = TestPaths.packageRoot.appendingPathComponent("Scripts/graph/check").path
        let result = try await ProcessRunner.run(check, [], deadline: 240)
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
        #expect(!result.stdoutText.contains("FAIL"), "\(result.stdoutText)")
    }

    /// The fake's own unit tests (recurrence expansion, delta bookkeeping, faults), which work
    /// out by hand what the docs say.
    @Test func theFakesOwnTestsPass() async throws {
        let tests = TestPaths.packageRoot.appendingPathComponent("Scripts/graph/test_fake.py").path
        let result = try await ProcessRunner.run("/usr/bin/python3", [tests], deadline: 60)
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
    }
}
