import Foundation
import Testing
import CalgwTestSupport

/// Messages a person understands, with the exit code that fits: a missing file is "no such
/// file", not Foundation's error record; a missing `--local` folder is not told to pull; a
/// server that wants credentials when none were given is not said to refuse them; a password
/// command that is not installed is a set-up error (2), not a refused password (5).
@Suite(.timeLimit(.minutes(10))) struct PlainMessagesTests {
    /// `-v` prints what lies under an error, one `cause:` line each; without it, only the
    /// error and its hint.
    @Test func verboseShowsTheCauseChain() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.file("vdir"), withIntermediateDirectories: true)
        try TestPairConfig(
            local: folder.file("vdir"), remote: URL(string: "http://127.0.0.1:9/cal/")!,
            journal: folder.file("j.sqlite")
        ).write(to: folder.file("config.toml"))
        let plain = try await CalgwBinary.run(["sync", "--config", folder.file("config.toml").path])
        #expect(
            plain.status == 1 && plain.stderrText.contains("cannot read the remote side")
                && !plain.stderrText.contains("cause:"),
            "\(plain.stderrText)")
        let verbose = try await CalgwBinary.run(["-v", "sync", "--config", folder.file("config.toml").path])
        let causes = verbose.stderrText.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("cause: ") }
        #expect(
            verbose.status == 1 && causes.contains { $0.contains("connectionFailed") && $0.contains("127.0.0.1:9") },
            "\(verbose.stderrText)")
    }

    @Test func aMissingFileIsNoSuchFile() async throws {
        let r = try await CalgwBinary.run([
            "expand", "/nonexistent/nosuch.ics", "--from", "2026-01-01", "--to", "2026-02-01",
        ])
        #expect(r.status == 1 && r.stderrText.contains("/nonexistent/nosuch.ics: no such file"), "\(r.stderrText)")
        #expect(!r.stderrText.contains("NSCocoaErrorDomain"), "\(r.stderrText)")
    }

    @Test func aMissingLocalFolderIsNotToldToPull() async throws {
        let r = try await CalgwBinary.run([
            "list", "--local", "/nonexistent/folder", "--from", "2026-01-01", "--to", "2026-02-01",
        ])
        #expect(r.status == 1 && r.stderrText.contains("no such folder: /nonexistent/folder"), "\(r.stderrText)")
        #expect(!r.stderrText.contains("pull"), "\(r.stderrText)")
    }

    @Test func aServerThatWantsCredentialsWhenNoneWereGivenSaysSo() async throws {
        let server = try TestServers.shared(TestServers.any())
        let r = try await CalgwBinary.run(["discover", server.home.absoluteString])
        #expect(
            r.status == 5 && r.stderrText.contains("asks for a user name and password"), "\(r.status) \(r.stderrText)")
        #expect(!r.stderrText.contains("refused"), "\(r.stderrText)")
    }

    @Test func aPasswordCommandThatIsNotInstalledIsASetUpError() async throws {
        let server = try TestServers.shared(TestServers.any())
        let r = try await CalgwBinary.run([
            "discover", server.home.absoluteString, "--username", server.username,
            "--password-command", "calgw-no-such-password-tool show dav",
        ])
        #expect(
            r.status == 2 && r.stderrText.contains("was not found: is it installed?"), "\(r.status) \(r.stderrText)")
        #expect(!r.stderrText.contains("exited with 127"), "\(r.stderrText)")
    }
}
