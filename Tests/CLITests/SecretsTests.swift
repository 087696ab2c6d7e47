import Foundation
import Testing
import CalgwTestSupport

/// Passwords and tokens appear nowhere calgw writes, even at its most verbose (`-vvv`, which
/// logs every header line sent and received): not on stdout, stderr, in `--json`, the journal
/// or the vdir. The secrets are random, so finding one means calgw leaked it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SecretsTests {
    enum Mode: String, CaseIterable { case basic, digest, bearer }

    @Test(arguments: Mode.allCases)
    func noSecretAtTheMostVerboseLevel(mode: Mode) async throws {
        let server = try TestServers.shared(TestServers.any())
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let secret = "pw-\(UUID().uuidString)"
        let user = "secret-tester"
        let tokenFile = folder.file("token")  // what the proxy accepts
        try Data(secret.utf8).write(to: tokenFile)
        let clientTokenFile = folder.file("client-token")  // what calgw's token command prints
        try Data(secret.utf8).write(to: clientTokenFile)
        let proxy = try TestProxies.auth(
            upstream: server.url, mode: mode.rawValue, user: user, password: secret,
            tokenFile: mode == .bearer ? tokenFile : nil,
            upstreamUser: server.username, upstreamPassword: server.password)
        defer { proxy.stop() }
        let collection = server.newCollectionURL(prefix: "secrets")
        try await server.makeCalendar(collection)

        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        for i in 0..<2 {
            try TestEvent.data(
                uid: "secret-\(i)-\(UUID().uuidString)", summary: "s\(i)", start: "20260301T100000Z",
                end: "20260301T110000Z"
            )
            .write(to: vdir.appendingPathComponent("e\(i).ics"))
        }
        let passwordFile = folder.file("password")
        try Data("\(secret)\n".utf8).write(to: passwordFile)
        chmod(passwordFile.path, 0o600)
        let credentials =
            mode == .bearer
            ? "token_command = [\"cat\", \"\(clientTokenFile.path)\"]"
            : "username = \"\(user)\"\npassword_file = \"\(passwordFile.path)\""
        let config = folder.file("config.toml")
        try Data(
            """
            [pair.secrets]
            local = "\(vdir.path)"
            remote = "\(proxy.proxied(collection).absoluteString)"
            \(credentials)
            journal = "\(folder.file("state/journal.sqlite").path)"
            """.utf8
        ).write(to: config)

        var outputs: [String] = []
        func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
            let result = try await CalgwBinary.run(arguments + ["--config", config.path])
            outputs += [result.stdoutText, result.stderrText]
            return result
        }
        let first = try await calgw(["sync", "-vvv", "--json"])
        #expect(first.status == 0, "\(mode): \(first.stderrText)")
        #expect(
            (try? JSONSerialization.jsonObject(with: first.stdout)) != nil,
            "--json is one document: \(first.stdoutText)")
        // The trace was on and the credential header was there to blank.
        let scheme = mode == .digest ? "Digest" : mode == .bearer ? "Bearer" : "Basic"
        #expect(
            first.stderrText.contains("> Authorization: \(scheme) <redacted>"),
            "\(mode): \(first.stderrText.prefix(3000))")
        #expect(first.stderrText.contains("debug: HTTP"), "\(mode): no request lines at -vvv")

        try TestEvent.data(
            uid: "secret-late-\(UUID().uuidString)", summary: "late", start: "20260301T100000Z", end: "20260301T110000Z"
        )
        .write(to: vdir.appendingPathComponent("late.ics"))
        #expect(try await calgw(["sync", "-vvv"]).status == 0)
        #expect(try await calgw(["status", "-vvv", "--json"]).status == 0)

        // A refused credential fails with exit 5, and the wrong secret is not shown either.
        let wrong = "wrong-\(UUID().uuidString)"
        try Data(wrong.utf8).write(to: mode == .bearer ? clientTokenFile : passwordFile)
        let refused = try await calgw(["sync", "-vvv", "--json"])
        #expect(refused.status == 5, "\(mode): \(refused.stderrText.suffix(2000))")

        var written: [(String, Data)] = []
        let skip: Set<String> = [passwordFile.path, tokenFile.path, clientTokenFile.path]
        if let walker = FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where !skip.contains(url.path) {
                if let data = try? Data(contentsOf: url) { written.append((url.path, data)) }
            }
        }
        #expect(written.contains { $0.0.hasSuffix("journal.sqlite") }, "the journal was read")
        let basic = Data("\(user):\(secret)".utf8).base64EncodedString()
        for needle in [secret, wrong, basic] {
            for (index, text) in outputs.enumerated() {
                #expect(!text.contains(needle), "\(mode): output \(index) holds a secret")
            }
            for (path, data) in written {
                #expect(data.range(of: Data(needle.utf8)) == nil, "\(mode): \(path) holds a secret")
            }
        }
    }

    @Test func aPasswordFileOthersCanReadIsRefused() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let secret = "pw-\(UUID().uuidString)"
        let passwordFile = folder.file("password")
        try Data(secret.utf8).write(to: passwordFile)
        chmod(passwordFile.path, 0o644)
        try FileManager.default.createDirectory(at: folder.file("vdir"), withIntermediateDirectories: true)
        let config = folder.file("config.toml")
        try Data(
            """
            [pair.p]
            local = "\(folder.file("vdir").path)"
            remote = "http://127.0.0.1:9/cal/"
            username = "alice"
            password_file = "\(passwordFile.path)"
            journal = "\(folder.file("journal.sqlite").path)"
            """.utf8
        ).write(to: config)
        let result = try await CalgwBinary.run(["sync", "-vvv", "--config", config.path])
        #expect(result.status == 2, "\(result.stderrText)")
        #expect(
            result.stderrText.contains("can be read by others") && result.stderrText.contains("chmod 600"),
            "\(result.stderrText)")
        #expect(!result.stderrText.contains(secret) && !result.stdoutText.contains(secret))
    }
}
