import Foundation
import Synchronization

/// The sign-in tests' authorization server (`Scripts/oauth/server`: django-oauth-toolkit on
/// 127.0.0.1) with a bearer gate (`Scripts/proxies/bearer_proxy.py`) in front of a CalDAV
/// server, so that a signed-in pair syncs through the tokens it got. Stop it with `stop()`.
public final class TestOAuthServer: @unchecked Sendable {
    /// What the server printed at start (`CALGW_OAUTH_*`, see Scripts/oauth/README.md).
    public let values: [String: String]
    /// The folder holding its database (`CALGW_OAUTH_STATE` for the browser).
    public let state: TemporaryFolder

    /// The server the sign-in tests share (access tokens living `accessTokenSeconds`, the
    /// defaults otherwise), started on first use and stopped when the process exits: a start
    /// costs six seconds of migrations. Tests sign in with their own pairs and folders.
    public static func shared() throws -> TestOAuthServer {
        try sharedServer.withLock { known in
            if let known { return try known.get() }
            let started = Result { try TestOAuthServer(settings: ["CALGW_OAUTH_ACCESS_TOKEN_SECONDS": "60"]) }
            known = started
            atexit { _ = try? TestOAuthServer.sharedServer.withLock { try $0?.get().stop() } }
            return try started.get()
        }
    }

    private static let sharedServer = Mutex<Result<TestOAuthServer, any Error>?>(nil)

    /// Starts a server with `settings` (`CALGW_OAUTH_ACCESS_TOKEN_SECONDS`, …).
    /// - Throws: ``ProcessFailure`` with the script's output when it does not start.
    public init(settings: [String: String] = [:]) throws {
        state = try TemporaryFolder(prefix: "calgw-oauth")
        let result = try ProcessRunner.runBlocking(
            TestPaths.packageRoot.appendingPathComponent("Scripts/oauth/server").path, ["start", state.url.path],
            environment: settings, deadline: 120)
        guard result.status == 0 else {
            state.remove()
            throw ProcessFailure(
                command: "Scripts/oauth/server start", status: result.status, stderr: result.stderrText)
        }
        var values: [String: String] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        self.values = values
    }

    deinit { stop() }

    /// Stops the server and removes its files.
    public func stop() {
        _ = try? ProcessRunner.runBlocking(
            TestPaths.packageRoot.appendingPathComponent("Scripts/oauth/server").path, ["stop", state.url.path])
        state.remove()
    }

    /// `CALGW_OAUTH_NAME`'s value.
    public subscript(_ name: String) -> String { values["CALGW_OAUTH_\(name)"] ?? "" }

    /// A pair's config lines that sign in at this server: the scopes and every endpoint (the
    /// client's own lines are the test's).
    public var pairConfigLines: String {
        """
        scopes = ["openid", "email", "calendar"]
        authorization_endpoint = "\(self["AUTHORIZATION_ENDPOINT"])"
        token_endpoint = "\(self["TOKEN_ENDPOINT"])"
        device_authorization_endpoint = "\(self["DEVICE_AUTHORIZATION_ENDPOINT"])"
        revocation_endpoint = "\(self["REVOCATION_ENDPOINT"])"
        userinfo_endpoint = "\(self["USERINFO_ENDPOINT"])"

        """
    }

    /// A bearer gate in front of `server` that takes this server's tokens for alice and passes
    /// requests on with the CalDAV server's own credentials; the caller stops it.
    public func gate(for server: TestServer) throws -> TestProxy {
        try TestProxies.start(
            "bearer_proxy.py", upstream: server.url,
            arguments: [
                "--introspection-endpoint", self["INTROSPECTION_ENDPOINT"], "--client-id",
                self["INTROSPECTION_CLIENT_ID"], "--client-secret", self["INTROSPECTION_CLIENT_SECRET"],
                "--upstream-user", server.username, "--upstream-password", server.password, "--cache-seconds", "0",
            ])
    }

    /// A gate in front of the Graph fake `graph`: it takes this server's tokens and forwards
    /// with the fake's own, keeping the Host the client asked for (the fake's links then lead
    /// back through the gate).
    public func gate(for graph: TestGraphServer) throws -> TestProxy {
        try TestProxies.start(
            "bearer_proxy.py", upstream: graph.url.deletingLastPathComponent(),
            arguments: [
                "--introspection-endpoint", self["INTROSPECTION_ENDPOINT"], "--client-id",
                self["INTROSPECTION_CLIENT_ID"], "--client-secret", self["INTROSPECTION_CLIENT_SECRET"],
                "--upstream-bearer", graph.token, "--cache-seconds", "0",
            ])
    }

    /// The environment that makes `Scripts/oauth/browser` the person's browser, signing in as
    /// alice (and declining when `decision` is `deny`).
    public func browserEnvironment(decision: String? = nil) -> [String: String] {
        var environment = [
            "BROWSER": TestPaths.packageRoot.appendingPathComponent("Scripts/oauth/browser").path,
            "CALGW_OAUTH_STATE": state.url.path,
        ]
        if let decision { environment["CALGW_OAUTH_BROWSER_DECISION"] = decision }
        return environment
    }

    /// The provider's answer to `fields` posted to the token endpoint (with curl): its
    /// status and body, to see what the server thinks of a token calgw no longer uses.
    public func tokenEndpoint(_ fields: [String: String]) async throws -> (status: Int, body: String) {
        var arguments = ["-s", "--max-time", "30", "-w", "\n%{http_code}", "-X", "POST", self["TOKEN_ENDPOINT"]]
        for (key, value) in fields { arguments += ["--data-urlencode", "\(key)=\(value)"] }
        let text = try await ProcessRunner.run("curl", arguments).stdoutText
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}
