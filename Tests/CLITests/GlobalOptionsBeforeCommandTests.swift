import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// `calgw -c FILE sync`, `calgw -q sync`, `calgw -vv event add …`: the options every command
/// takes may stand before the command name, as with vdirsyncer and khal; given both before
/// and after it, the one after wins.
@Suite(.timeLimit(.minutes(10))) struct GlobalOptionsBeforeCommandTests {
    @Test func configBeforeTheCommandSyncs() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        let before = try await CalgwBinary.run(["-c", pair.config.path, "sync"])
        #expect(before.status == 0, "\(before.stderrText)")
        #expect(try pair.summaries(pair.remote) == ["a": "local"])
        // After the command, the short form works too.
        try pair.write(pair.remote, "b.ics", TestEvent.data(uid: "b", summary: "remote"))
        let after = try await CalgwBinary.run(["sync", "-c", pair.config.path])
        #expect(after.status == 0, "\(after.stderrText)")
        #expect(try pair.summaries(pair.local) == ["a": "local", "b": "remote"])
    }

    @Test func configBeforeStatusWithJSON() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        for config in [["--config", pair.config.path], ["--config=\(pair.config.path)"]] {
            let result = try await CalgwBinary.run(config + ["status", "--json"])
            #expect(result.status == 0, "\(config): \(result.stderrText)")
            let pending = try #require(try pair.json(result)["pending"] as? [String: [String: Int]])
            #expect(pending["created"] == ["local": 0, "remote": 1])
        }
        #expect(try pair.summaries(pair.remote).isEmpty, "status changed something")
    }

    @Test func quietBeforeTheCommandIsHonoured() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.remote, "broken.ics", Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:b\r\n".utf8))
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        let loud = try await CalgwBinary.run(["sync", "-c", pair.config.path])
        #expect(loud.status == 0 && loud.stderrText.contains("broken.ics"), "\(loud.stderrText)")

        try pair.write(pair.local, "c.ics", TestEvent.data(uid: "c", summary: "local"))
        let quiet = try await CalgwBinary.run(["-q", "-c", pair.config.path, "sync"])
        #expect(quiet.status == 0, "\(quiet.stderrText)")
        #expect(
            quiet.stderrText.isEmpty && quiet.stdoutText.isEmpty, "-q printed: \(quiet.stderrText)\(quiet.stdoutText)")
        #expect(try pair.summaries(pair.remote)["c"] == "local", "the quiet run did not sync")

        // -v and -q are one setting: the one after the command wins.
        try pair.write(pair.local, "d.ics", TestEvent.data(uid: "d", summary: "local"))
        let louder = try await CalgwBinary.run(["-q", "sync", "-c", pair.config.path, "-v"])
        #expect(
            louder.status == 0 && louder.stderrText.contains("broken.ics"), "-q before, -v after: \(louder.stderrText)")
        #expect(louder.stdoutText.contains("remote: 1 created"), "\(louder.stdoutText)")
        let quieter = try await CalgwBinary.run(["-vv", "sync", "-c", pair.config.path, "--quiet"])
        #expect(
            quieter.status == 0 && quieter.stderrText.isEmpty && quieter.stdoutText.isEmpty,
            "-vv before, --quiet after: \(quieter.stderrText)\(quieter.stdoutText)")
    }

    @Test func givenBothTheConfigAfterTheCommandWins() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "a.ics", TestEvent.data(uid: "a", summary: "local"))
        let missing = pair.folder.file("missing.toml").path
        let dryRun = try await CalgwBinary.run(["-c", missing, "sync", "--dry-run", "-c", pair.config.path])
        #expect(dryRun.status == 0, "\(dryRun.stderrText)")
        #expect(dryRun.stdoutText.contains("remote: 1 created"), "\(dryRun.stdoutText)")
        let refused = try await CalgwBinary.run(["--config", pair.config.path, "sync", "--config=\(missing)"])
        #expect(
            refused.status == 2 && refused.stderrText.contains("no config file at")
                && refused.stderrText.contains("missing.toml"), "\(refused.stderrText)")
        #expect(try pair.summaries(pair.remote).isEmpty)
    }

    @Test func configBeforeACommandThatReadsNoneIsIgnored() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("a.ics")
        try TestEvent.data(uid: "a", summary: "x").write(to: file)
        let lint = try await CalgwBinary.run(["-c", folder.file("nowhere.toml").path, "-q", "lint", file.path])
        #expect(lint.status == 0, "\(lint.stderrText)")
        // Written after such a command, it is an error as it always was.
        let after = try await CalgwBinary.run(["lint", file.path, "-c", folder.file("nowhere.toml").path])
        #expect(after.status == 2, "\(after.stderrText)")
    }

    @Test func verboseAndConfigBeforeEventCommandsOnRadicale() async throws {
        let pair = try await InteropPair(prefix: "global-options", withSamples: false)
        defer { pair.remove() }
        let add = try await CalgwBinary.run(
            [
                "-vv", "-c", pair.config.path, "event", "add", "--summary", "Review",
                "--start", "2026-04-01T14:00", "--json",
            ], environment: pair.environment)
        #expect(add.status == 0, "\(add.stderrText)")
        #expect(add.stderrText.contains("debug: HTTP"), "-vv before `event add` logged no request: \(add.stderrText)")
        struct Added: Decodable { var uid: String; var pushed: Bool }
        let added = try JSONDecoder().decode(Added.self, from: add.stdout)
        #expect(added.pushed)
        #expect(try await pair.serverUIDs() == [added.uid])

        let edit = try await CalgwBinary.run(
            ["--config", pair.config.path, "event", "-q", "edit", added.uid, "--summary", "Reviewed"],
            environment: pair.environment)
        #expect(edit.status == 0 && edit.stderrText.isEmpty, "\(edit.stderrText)")
        let items = try await pair.client.listItems(in: pair.collection)
        #expect(items.count == 1)
        for item in items {
            let resource = try await pair.client.get(pair.url(of: item.href))
            #expect(
                String(decoding: resource.data, as: UTF8.self).contains("SUMMARY:Reviewed"), "the edit was not pushed")
        }

        let delete = try await CalgwBinary.run(
            ["-q", "--config=\(pair.config.path)", "event", "delete", added.uid],
            environment: pair.environment)
        #expect(
            delete.status == 0 && delete.stderrText.isEmpty && delete.stdoutText.isEmpty,
            "\(delete.stderrText)\(delete.stdoutText)")
        #expect(try await pair.serverUIDs().isEmpty)
    }
}
