import CalgwTestSupport
import Failures
import Foundation
import Testing
@testable import CalendarSync

/// A server's settings become a client only in the library, and only when asked: what the
/// settings get wrong is a `ConnectionError` of the kind CLI.md gives it.
@Suite struct ServerSettingsTests {
    /// A pair's server side holds settings, not a client: making the pair reads no secret (a
    /// password command that would fail is not run), making its storage does.
    @Test func theSecretIsReadWhenTheStorageIsMadeNotBefore() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let marker = folder.file("ran")
        let settings = ServerSettings(
            signIn: SignIn(username: "alice", password: .shell("touch \(marker.path); exit 3")))
        let pair = Pair(
            name: "work", local: .vdir(folder.file("vdir")),
            remote: .server(URL(string: "https://dav.example.com/cal/")!, server: settings),
            journal: folder.file("work.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        do {
            _ = try pair.storage(pair.remote)
            Issue.record("a failing password command should stop the storage from being made")
        } catch let error as ConnectionError {
            #expect(error.code == .commandFailed)
            #expect(error.kind == .authentication)
            #expect(error.message.contains("exited with 3"), "\(error.message)")
        }
        #expect(FileManager.default.fileExists(atPath: marker.path))
    }

    /// A pin not in curl's form is a usage error naming the pair and the config key.
    @Test func aMalformedPinIsAUsageErrorNamingThePair() throws {
        let settings = ServerSettings(pinnedPublicKey: "AB:CD:EF")
        do {
            _ = try settings.client(owner: "pair work")
            Issue.record("a malformed pin should be refused")
        } catch let error as ConnectionError {
            #expect(error.code == .malformedPin && error.kind == .usage)
            #expect(error.message.hasPrefix("pair work: verify_fingerprint must be sha256//BASE64"), "\(error.message)")
            #expect(error.recovery?.contains("--pinnedpubkey") == true)
        }
    }

    /// A password without a user name, or from a variable that is not set, is a usage error.
    @Test func configurationMistakesAreUsageErrors() throws {
        let withoutUser = ServerSettings(signIn: SignIn(password: .environment("HOME")))
        #expect(throws: ConnectionError.self) { try withoutUser.client(owner: nil) }
        let unsetVariable = ServerSettings(
            signIn: SignIn(
                username: "alice", password: .environment("CALGW_TEST_NEVER_SET_\(UUID().uuidString.prefix(8))")))
        do {
            _ = try unsetVariable.client(owner: nil)
            Issue.record("an unset variable should be refused")
        } catch let error as ConnectionError {
            #expect(error.code == .variableNotSet && error.kind == .usage)
            #expect(error.recovery == "export it, or use password_command")
        }
    }

    /// A token command is not run when the client is made: only a request that needs the token runs it.
    @Test func aTokenCommandWaitsForTheFirstRequest() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let marker = folder.file("ran")
        let settings = ServerSettings(
            signIn: SignIn(tokenCommand: SecretSource.shellArguments("touch \(marker.path); echo token")))
        _ = try settings.client(owner: "pair work")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    /// A feed's side is made from the same settings, with the caps it has of its own.
    @Test func aSubscriptionTakesItsCapsFromTheSettings() throws {
        let settings = ServerSettings(maxResponseBytes: 1000, maxLineLength: 200)
        let storage = try settings.subscriptionStorage(
            URL(string: "https://example.org/h.ics")!, owner: "pair holidays")
        #expect(storage.options.maxBodyBytes == 1000)
        #expect(storage.options.maxLineLength == 200)
    }
}
