import Foundation
import Testing
import CalgwTestSupport

extension SignInTests {
    /// A state folder others can write in (the token's folder) is refused before the sign-in
    /// starts, by every flow: the token would be theirs to replace, and a sign-in made there
    /// would only be refused by the next run. Nothing is opened, nothing is written.
    @Test func aSignInIntoAStateFolderOthersCanWriteIsRefusedBeforeItStarts() async throws {
        let p = try await pair()
        defer { p.finish() }
        let folder = p.tokenFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o777)
        let log = p.folder.file("browser.log")
        var environment = p.oauth.browserEnvironment()
        environment["XDG_STATE_HOME"] = p.folder.file("state").path
        environment["CALGW_OAUTH_BROWSER_LOG"] = log.path
        for flow in [[], ["--device"], ["--no-browser"]] {
            let login = try await CalgwBinary.run(
                ["login"] + flow + ["--config", p.config.path, "--pair", "p"], stdin: Data(),
                environment: environment)
            #expect(login.status == 2, "\(flow): \(login.stdoutText)\(login.stderrText)")
            #expect(
                login.stderrText.contains("\(folder.path) can be written by others")
                    && login.stderrText.contains("chmod 700"), "\(flow): \(login.stderrText)")
            #expect(!login.stdoutText.contains("/o/authorize/?"), "\(flow): the sign-in started: \(login.stdoutText)")
        }
        #expect(!FileManager.default.fileExists(atPath: log.path), "a browser was opened")
        #expect(!FileManager.default.fileExists(atPath: p.tokenFile.path))
        chmod(folder.path, 0o700)
        let login = try await p.run(["login"])
        #expect(login.status == 0, "\(login.stderrText)")
    }
}
