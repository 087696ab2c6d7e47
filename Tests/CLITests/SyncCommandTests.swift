import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

@Suite(.timeLimit(.minutes(10))) struct SyncCommandTests {
    @Test func syncsBothWaysAndReportsJSON() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        try pair.write(pair.remote, "b.ics", TestEvent.data(uid: "b", summary: "remote"))
        let result = try await pair.run("sync", ["--json"])
        #expect(result.status == 0, "\(result.stderrText)")
        let json = try pair.json(result)
        #expect(json["created"] as? [String: Int] == ["local": 1, "remote": 1])
        #expect(json["updated"] as? [String: Int] == ["local": 0, "remote": 0])
        #expect(json["deleted"] as? [String: Int] == ["local": 0, "remote": 0])
        #expect((json["conflicts"] as? [Any])?.isEmpty == true)
        #expect((json["errors"] as? [Any])?.isEmpty == true)
        #expect(try pair.summaries(pair.local) == ["a": "local", "b": "remote"])
        #expect(try pair.summaries(pair.remote) == ["a": "local", "b": "remote"])
        let again = try await pair.run("sync")
        #expect(again.status == 0)
        #expect(
            again.stdoutText.contains("local: 0 created, 0 updated, 0 deleted; remote: 0 created, 0 updated, 0 deleted")
        )
        let mode = try FileManager.default.attributesOfItem(atPath: pair.journal.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func dryRunChangesNothing() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        let result = try await pair.run("sync", ["--dry-run"])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("remote: 1 created"))
        #expect(try pair.summaries(pair.remote).isEmpty)
    }

    @Test func massDeletionExitsFourUntilAllowed() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        for i in 0..<4 { try pair.write(pair.local, "e\(i).ics", TestEvent.data(uid: "e\(i)", summary: "x")) }
        #expect(try await pair.run("sync").status == 0)
        for i in 0..<4 { try FileManager.default.removeItem(at: pair.local.appendingPathComponent("e\(i).ics")) }
        let refused = try await pair.run("sync", ["--json"])
        #expect(refused.status == 4)
        #expect(refused.stderrText.contains("--allow-mass-delete"))
        #expect(((try pair.json(refused))["errors"] as? [String])?.first?.contains("empty") == true)
        #expect(try pair.summaries(pair.remote).count == 4)
        let allowed = try await pair.run("sync", ["--allow-mass-delete"])
        #expect(allowed.status == 0, "\(allowed.stderrText)")
        #expect(try pair.summaries(pair.remote).isEmpty)
    }

    @Test func deletingMoreThanHalfOfTwentyOrMoreIsRefusedUntilAllowed() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        for i in 0..<20 { try pair.write(pair.local, "e\(i).ics", TestEvent.data(uid: "e\(i)", summary: "x")) }
        #expect(try await pair.run("sync").status == 0)
        // Half is ordinary.
        for i in 0..<10 { try FileManager.default.removeItem(at: pair.local.appendingPathComponent("e\(i).ics")) }
        let half = try await pair.run("sync", ["--dry-run"])
        #expect(half.status == 0, "\(half.stderrText)")
        // One more is more than half: refused, the server's copies kept.
        try FileManager.default.removeItem(at: pair.local.appendingPathComponent("e10.ics"))
        let refused = try await pair.run("sync", ["--json"])
        #expect(refused.status == 4, "\(refused.stdoutText) \(refused.stderrText)")
        #expect(
            refused.stderrText.contains("11 of the 20") && refused.stderrText.contains("--allow-mass-delete"),
            "\(refused.stderrText)")
        #expect(try pair.summaries(pair.remote).count == 20)
        let status = try await pair.run("status")
        #expect(status.stdoutText.contains("11 of the 20"), "\(status.stdoutText)")
        let allowed = try await pair.run("sync", ["--allow-mass-delete"])
        #expect(allowed.status == 0, "\(allowed.stderrText)")
        #expect(try pair.summaries(pair.remote).count == 9)
    }

    /// Asked on a terminal and skipped: exit 3, and the hint says to run the sync again to
    /// answer (not to run it "on a terminal with --conflict ask", which it was).
    @Test func askSkippedOnATerminalSaysToRunAgain() async throws {
        let pair = try VDirPair(conflict: "ask")
        defer { pair.remove() }
        try await pair.makeConflict()
        let command = "'\(CalgwBinary.url.path)' sync --config '\(pair.config.path)'"
        let run = try await ProcessRunner.run(
            "script", ["-qfec", command, "/dev/null"], stdin: Data("s\n".utf8),
            environment: ["NO_COLOR": "1", "TERM": "xterm"])
        #expect(run.status == 3, "\(run.stdoutText)")
        #expect(run.stdoutText.contains("[s]kip"), "not asked: \(run.stdoutText)")
        #expect(
            run.stdoutText.contains("run the sync again to answer them")
                && !run.stdoutText.contains("run on a terminal"),
            "\(run.stdoutText)")
        #expect(try pair.summaries(pair.local) == ["a": "mine"])
    }

    @Test func askWithoutATerminalExitsThree() async throws {
        let pair = try VDirPair(conflict: "ask")
        defer { pair.remove() }
        try await pair.makeConflict()
        let result = try await pair.run("sync", ["--json"])
        #expect(result.status == 3, "\(result.stderrText)")
        let conflicts = try #require((try pair.json(result))["conflicts"] as? [[String: String]])
        #expect(conflicts == [["uid": "a", "resolution": "unresolved"]])
        #expect(try pair.summaries(pair.local) == ["a": "mine"])
        #expect(try pair.summaries(pair.remote) == ["a": "theirs"])
        // --conflict overrides the config.
        let resolved = try await pair.run("sync", ["--conflict", "remote-wins"])
        #expect(resolved.status == 0)
        #expect(try pair.summaries(pair.local) == ["a": "theirs"])
    }

    @Test func aBadConflictStrategyIsAUsageError() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        #expect(try await pair.run("sync", ["--conflict", "coin-toss"]).status == 2)
    }

    @Test func aSecondRunWaitsForTheLockThenExitsOne() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try FileManager.default.createDirectory(
            at: pair.journal.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Held by this process (an flock of its own open file) for as long as the run takes.
        let lockPath = pair.journal.path + ".lock"
        let held = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(held >= 0 && flock(held, LOCK_EX) == 0, "could not take \(lockPath)")
        defer { close(held) }
        let result = try await pair.run("sync")
        #expect(result.status == 1)
        #expect(result.stderrText.contains("another calgw run"))
    }

    @Test func uidsWithSlashesSpacesAndNonASCIIGetSafeFileNames() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        let uids = ["a/b", "with space", "Frühstück ☕", "../../escape"]
        for (i, uid) in uids.enumerated() {
            try pair.write(pair.remote, "r\(i).ics", TestEvent.data(uid: uid, summary: "e\(i)"))
        }
        let result = try await pair.run("sync")
        #expect(result.status == 0, "\(result.stderrText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: pair.local.path)
        #expect(names.count == 4)
        #expect(
            names.allSatisfy {
                $0.hasSuffix(".ics") && !$0.hasPrefix(".") && $0.utf8.allSatisfy { $0 < 128 && $0 != UInt8(ascii: " ") }
            })
        #expect(Set(try pair.summaries(pair.local).keys) == Set(uids))
        #expect(!FileManager.default.fileExists(atPath: pair.folder.file("escape.ics").path))
    }

    /// Kills `calgw sync` after each of its side effects in turn; the next run converges.
    @Test func aKilledSyncIsFinishedByTheNextRun() async throws {
        var k = 1
        var finished = false
        // A run of this scenario has a few dozen side effects: a bound, so a run that never
        // finishes fails the test instead of looping.
        while k <= 200 {
            let pair = try VDirPair()
            defer { pair.remove() }
            for uid in ["a", "b", "c"] {
                try pair.write(pair.local, "\(uid).ics", TestEvent.data(uid: uid, summary: "v1"))
            }
            #expect(try await pair.run("sync").status == 0)
            let remoteNames = try FileManager.default.contentsOfDirectory(atPath: pair.remote.path)
            try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local edit"))
            try FileManager.default.removeItem(at: pair.local.appendingPathComponent("b.ics"))
            try pair.write(pair.local, "d.ics", TestEvent.data(uid: "d", summary: "new local"))
            try pair.write(
                pair.remote, try #require(remoteNames.first { $0.hasPrefix("c") }),
                TestEvent.data(uid: "c", summary: "remote edit"))
            try pair.write(pair.remote, "e.ics", TestEvent.data(uid: "e", summary: "new remote"))

            let killed = try await pair.run("sync", environment: ["CALGW_TEST_KILL_AFTER": "\(k)"])
            let expected = ["a": "local edit", "c": "remote edit", "d": "new local", "e": "new remote"]
            if killed.status == 0 {
                // k is past the last side effect: the run finished.
                #expect(try pair.summaries(pair.local) == expected)
                #expect(k > 5)
                finished = true
                break
            }
            #expect(killed.status != 1, "k = \(k): \(killed.stderrText)")
            let rerun = try await pair.run("sync")
            #expect(rerun.status == 0, "k = \(k): \(rerun.stderrText)")
            #expect(try pair.summaries(pair.local) == expected, "k = \(k)")
            #expect(try pair.summaries(pair.remote) == expected, "k = \(k)")
            let third = try await pair.run("sync", ["--json"])
            let json = try pair.json(third)
            #expect(json["created"] as? [String: Int] == ["local": 0, "remote": 0], "k = \(k)")
            #expect(json["updated"] as? [String: Int] == ["local": 0, "remote": 0], "k = \(k)")
            k += 1
        }
        #expect(finished, "calgw sync still had side effects after 200")
    }
}
