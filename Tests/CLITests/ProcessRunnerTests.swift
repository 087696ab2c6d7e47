import CalgwTestSupport
import Foundation
import Testing

/// The runner every command-line test waits on: what a program printed and how it ended, a
/// program past its deadline or of a cancelled test killed with its children, many at once.
/// (The time limit is the suites' usual one: a part of the default suite starts hundreds of
/// tests at once on two cores, and two minutes were once not enough for these four to be run.)
@Suite(.timeLimit(.minutes(10))) struct ProcessRunnerTests {
    @Test func statusAndOutputAsAShellGivesThem() async throws {
        let script = "cat; echo out; echo err >&2; exit 3"
        let awaited = try await ProcessRunner.run("/bin/sh", ["-c", script], stdin: Data("in\n".utf8))
        let blocking = try ProcessRunner.runBlocking("/bin/sh", ["-c", script], stdin: Data("in\n".utf8))
        for result in [awaited, blocking] {
            #expect(result.status == 3)
            #expect(result.stdoutText == "in\nout\n")
            #expect(result.stderrText == "err\n")
        }
        #expect(try await ProcessRunner.run("/bin/sh", ["-c", "kill -TERM $$"]).status == 128 + SIGTERM)
    }

    @Test func aProgramPastItsDeadlineIsKilledWithItsChildren() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mark = folder.file("mark")
        // The child outlives the shell unless its group is killed: it would write the mark.
        let script = "(sleep 2; touch '\(mark.path)') & echo started; wait"
        do {
            _ = try await ProcessRunner.run("/bin/sh", ["-c", script], deadline: 0.5)
            Issue.record("no failure past the deadline")
        } catch let failure as ProcessFailure {
            #expect(failure.stderr.contains("killed after 0 s") && failure.stderr.contains("started"), "\(failure)")
        }
        try await Task.sleep(for: .seconds(2.5))
        #expect(!FileManager.default.fileExists(atPath: mark.path), "the program's child lived on")
    }

    @Test func aCancelledTaskKillsItsProgram() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mark = folder.file("pid")
        // The program says its pid, then would sleep far past the test's time limit.
        let script = "echo $$ > '\(mark.path)'.new && mv '\(mark.path)'.new '\(mark.path)' && exec sleep 3600"
        let run = Task { try await ProcessRunner.run("/bin/sh", ["-c", script]) }
        while !FileManager.default.fileExists(atPath: mark.path) { try await Task.sleep(for: .milliseconds(20)) }
        let pid = pid_t(try String(contentsOf: mark, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        // Ended and reaped: no process has its pid (nothing else took it in between, at once).
        #expect(pid.map { kill($0, 0) == -1 && errno == ESRCH } == true, "the program lives on")
    }

    @Test func manyProgramsAtOnceEachEndWithTheirOwnStatus() async throws {
        let statuses = try await withThrowingTaskGroup(of: (Int, Int32).self) { group in
            for i in 0..<64 {
                group.addTask {
                    (i, try await ProcessRunner.run("/bin/sh", ["-c", "sleep 0.2; exit \(i % 7)"]).status)
                }
            }
            var statuses: [Int: Int32] = [:]
            for try await (i, status) in group { statuses[i] = status }
            return statuses
        }
        #expect(statuses.count == 64)
        #expect(statuses.allSatisfy { $0.value == Int32($0.key % 7) })
    }
}
