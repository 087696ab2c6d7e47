import Foundation
import Testing
import CalgwTestSupport

/// Messages a person understands, with the exit code that fits: a missing file is "no such
/// file", not Foundation's error record; a missing `--local` folder is not told to pull; a
/// server that wants credentials when none were given is not said to refuse them; a password
/// command that is not installed is a set-up error (2), not a refused password (5).
@Suite(.timeLimit(.minutes(10))) struct PlainMessagesTests {
    @Test func aMissingFileIsNoSuchFile() throws {
        let r = try CalgwBinary.run(["expand", "/nonexistent/nosuch.ics", "--from", "2026-01-01", "--to", "2026-02-01"])
        #expect(r.status == 1 && r.stderrText.contains("/nonexistent/nosuch.ics: no such file"), "\(r.stderrText)")
        #expect(!r.stderrText.contains("NSCocoaErrorDomain"), "\(r.stderrText)")
    }

    @Test func aMissingLocalFolderIsNotToldToPull() throws {
        let r = try CalgwBinary.run(["list", "--local", "/nonexistent/folder", "--from", "2026-01-01", "--to", "2026-02-01"])
        #expect(r.status == 1 && r.stderrText.contains("no such folder: /nonexistent/folder"), "\(r.stderrText)")
        #expect(!r.stderrText.contains("pull"), "\(r.stderrText)")
    }

    @Test func aServerThatWantsCredentialsWhenNoneWereGivenSaysSo() throws {
        let server = try TestServers.shared(TestServers.any())
        let r = try CalgwBinary.run(["discover", server.home.absoluteString])
        #expect(r.status == 5 && r.stderrText.contains("asks for a user name and password"), "\(r.status) \(r.stderrText)")
        #expect(!r.stderrText.contains("refused"), "\(r.stderrText)")
    }

    @Test func aPasswordCommandThatIsNotInstalledIsASetUpError() throws {
        let server = try TestServers.shared(TestServers.any())
        let r = try CalgwBinary.run(["discover", server.home.absoluteString, "--username", server.username,
                                     "--password-command", "calgw-no-such-password-tool show dav"])
        #expect(r.status == 2 && r.stderrText.contains("was not found: is it installed?"), "\(r.status) \(r.stderrText)")
        #expect(!r.stderrText.contains("exited with 127"), "\(r.stderrText)")
    }
}
