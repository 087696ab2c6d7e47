import Foundation
import Testing
import CalgwTestSupport

/// `calgw login` and `logout` against a real authorization server (django-oauth-toolkit, as
/// `Scripts/oauth/server` sets it up) and a CalDAV server behind a gate that takes only its
/// tokens: the browser sign-in (PKCE, loopback redirect), the address pasted back, the device
/// grant, renewal with rotated refresh tokens, the token file's safety, revocation. The
/// server's access tokens live 60 s, inside calgw's renewal margin: every run renews.
/// One test at a time (about 20 s in all): the tests share one authorization server, and a
/// renewal's timing is what two of them check.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SignInTests {
    /// The test browser's log (`CALGW_OAUTH_BROWSER_LOG`) once it holds the page calgw's
    /// listener answered with, or the browser's error, waiting up to 20 s: the browser runs on
    /// its own, and writes a line when it approves and the page's line after, so it may still
    /// be writing when `login` has ended.
    static func browserLog(_ log: URL) async throws -> String {
        let deadline = Date().addingTimeInterval(20)
        var text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        while !text.contains("\"listener_page\"") && !text.contains("\"outcome\": \"error\""), Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        return text
    }

    /// A signed-in pair's folder: config, vdir, state (`XDG_STATE_HOME`).
    struct Pair {
        let folder: TemporaryFolder
        let oauth: TestOAuthServer
        /// Whether the test started `oauth` for itself (settings of its own).
        let ownsServer: Bool
        let gate: TestProxy
        let server: TestServer
        let collection: URL

        /// Stops what the test started and removes its folder.
        func finish() {
            gate.stop()
            if ownsServer { oauth.stop() }
            folder.remove()
        }
        var config: URL { folder.file("config.toml") }
        var vdir: URL { folder.file("vdir") }
        var tokenFile: URL { folder.file("state/calgw/p.token.json") }

        /// `calgw COMMAND --pair p` with the pair's config, state and browser.
        func run(_ arguments: [String], stdin: Data? = nil, decision: String? = nil) async throws
            -> ProcessRunner.Result
        {
            var environment = oauth.browserEnvironment(decision: decision)
            environment["XDG_STATE_HOME"] = folder.file("state").path
            return try await CalgwBinary.run(
                arguments + ["--config", config.path, "--pair", "p"], stdin: stdin, environment: environment)
        }

        /// Runs a bash `script` that plays the person beside calgw: `$0` is the pair's folder,
        /// `$1` calgw, `$2` the test browser. What the script's calgw printed to `out` and `err`.
        func beside(_ script: String, environment extra: [String: String] = [:]) async throws -> (
            result: ProcessRunner.Result, out: String, err: String
        ) {
            var environment = oauth.browserEnvironment()
            environment["XDG_STATE_HOME"] = folder.file("state").path
            environment.merge(extra) { $1 }
            let result = try await ProcessRunner.run(
                "bash",
                [
                    "-c", script, folder.url.path,
                    CalgwBinary.url.path,
                    TestPaths.packageRoot.appendingPathComponent("Scripts/oauth/browser").path,
                ],
                environment: environment, deadline: 120)
            let read = { (name: String) in (try? String(contentsOf: folder.file(name), encoding: .utf8)) ?? "" }
            return (result, read("out"), read("err"))
        }

        /// Runs `calgw LOGIN` beside a person who opens the address it prints in the test
        /// browser elsewhere and pastes back where that browser ended (after `wrongFirst`, an
        /// address pasted by mistake, when given).
        func pastingBack(
            _ login: String = "login --no-browser", wrongFirst: String? = nil, environment: [String: String] = [:]
        ) async throws -> (result: ProcessRunner.Result, out: String, err: String) {
            let script = """
                set -e
                cd "$0"
                mkfifo answer
                \(login.hasPrefix("env ") ? "" : "\"$1\" ")\(login) --config config.toml --pair p < answer > out 2> err & pid=$!
                exec 3> answer
                for i in $(seq 100); do grep -q "/o/authorize/?" out && break; sleep 0.1; done
                url=$(grep -o 'http://[^ ]*/o/authorize/?[^ ]*' out | head -1)
                \(wrongFirst.map { "echo \"\($0)\" >&3" } ?? "")
                "$2" --print "$url" >&3
                wait $pid
                """
            return try await beside(script, environment: environment)
        }

        func token() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tokenFile)) as? [String: Any])
        }

        /// The events' summaries on the CalDAV server, read past the gate.
        func summariesOnServer() async throws -> [String] {
            let answer = try await ProcessRunner.run(
                "curl",
                [
                    "-s", "--max-time", "30", "-u", "\(server.username):\(server.password)", "-X", "REPORT", "-H",
                    "Depth: 1", "-H", "Content-Type: application/xml", "--data",
                    "<c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
                        + "<d:prop><c:calendar-data/></d:prop>"
                        + "<c:filter><c:comp-filter name=\"VCALENDAR\"/></c:filter></c:calendar-query>",
                    collection.absoluteString,
                ]
            ).stdoutText
            return answer.matches(of: /SUMMARY:([^\r\n<]+)/).map { String($0.1) }.sorted()
        }
    }

    /// A pair whose remote is a fresh calendar behind the gate, signing in with `auth` as the
    /// public client (or, for `google`, the confidential one with its secret).
    /// `settings` start a server of the test's own; without, the suite's shared one (access
    /// tokens living 60 s) serves.
    func pair(auth: String = "oauth", settings: [String: String]? = nil, namesScopes: Bool = true) async throws -> Pair
    {
        let oauth = try settings.map { try TestOAuthServer(settings: $0) } ?? TestOAuthServer.shared()
        let server = try TestServers.shared(TestServers.any())
        let gate = try oauth.gate(for: server)
        let collection = server.newCollectionURL(prefix: "signin")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        let client =
            auth == "google"
            ? "client_id = \"\(oauth["CONFIDENTIAL_CLIENT_ID"])\"\n"
                + "client_secret = \"\(oauth["CONFIDENTIAL_CLIENT_SECRET"])\"\n"
            : "client_id = \"\(oauth["CLIENT_ID"])\"\n"
        let text = """
            [pair.p]
            local = "\(folder.file("vdir").path)"
            remote = "\(gate.proxied(collection).absoluteString)"
            journal = "\(folder.file("journal.sqlite").path)"
            auth = "\(auth)"
            \(client)\(namesScopes ? oauth.pairConfigLines : oauth.pairConfigLines.replacing(/scopes = .*\n/, with: ""))
            """
        try Data(text.utf8).write(to: folder.file("config.toml"))
        try FileManager.default.createDirectory(at: folder.file("vdir"), withIntermediateDirectories: true)
        try TestEvent.data(uid: "signed-\(UUID().uuidString)", summary: "Planning")
            .write(to: folder.file("vdir/planning.ics"))
        return Pair(
            folder: folder, oauth: oauth, ownsServer: settings != nil, gate: gate, server: server,
            collection: collection)
    }

    @Test func aBrowserSignInSyncsThroughTheGateRenewsItselfAndKeepsEveryRotatedToken() async throws {
        let p = try await pair()
        defer { p.finish() }

        let before = try await p.run(["sync"])
        #expect(before.status == 5, "\(before.stderrText)")
        #expect(before.stderrText.contains("calgw login --pair p"), "\(before.stderrText)")

        let login = try await p.run(["login", "-vvv", "--json"])
        #expect(login.status == 0, "\(login.stdoutText)\(login.stderrText)")
        let record = try #require(try JSONSerialization.jsonObject(with: login.stdout) as? [String: Any])
        #expect(record["account"] as? String == "alice@example.org" && record["pair"] as? String == "p", "\(record)")
        #expect(login.stderrText.contains("/o/authorize/?"), "the address is printed: \(login.stderrText)")
        var info = stat()
        #expect(stat(p.tokenFile.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(p.tokenFile.deletingLastPathComponent().path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let first = try p.token()
        #expect(first["account"] as? String == "alice@example.org")

        let sync = try await p.run(["sync", "-vvv"])
        #expect(sync.status == 0, "\(sync.stderrText.suffix(2000))")
        #expect(try await p.summariesOnServer() == ["Planning"])
        let second = try p.token()
        let (oldRefresh, newRefresh) = (
            first["refresh_token"] as? String ?? "", second["refresh_token"] as? String ?? ""
        )
        #expect(!oldRefresh.isEmpty && !newRefresh.isEmpty && oldRefresh != newRefresh, "renewed, rotated and kept")
        for secret in [
            oldRefresh, newRefresh, second["access_token"] as? String ?? "-", first["access_token"] as? String ?? "-",
        ] {
            for output in [sync.stdoutText, sync.stderrText, login.stdoutText, login.stderrText] {
                #expect(!output.contains(secret), "a token in -vvv output")
            }
        }
        // The provider forgot the old refresh token: had calgw lost the new one, the pair
        // would be signed out.
        let old = try await p.oauth.tokenEndpoint([
            "grant_type": "refresh_token", "refresh_token": oldRefresh, "client_id": p.oauth["CLIENT_ID"],
        ])
        #expect(old.status == 400 && old.body.contains("invalid_grant"), "\(old)")

        let again = try await p.run(["sync"])
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(try p.token()["refresh_token"] as? String != newRefresh)
    }

    /// `auth = "microsoft"` on a Graph pair (`api = "graph"`): the sign-in as Microsoft's
    /// preset makes it (a public client, loopback on `localhost`), then a sync of an Outlook
    /// calendar with the token it got, through a gate that takes only this provider's tokens.
    @Test func aMicrosoftSignInSyncsAnOutlookCalendarThroughGraph() async throws {
        let oauth = try TestOAuthServer.shared()
        let graph = try await TestGraphServer()
        defer { graph.stop() }
        let gate = try oauth.gate(for: graph)
        defer { gate.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await graph.graph(
            "POST", "/me/calendar/events",
            json: [
                "subject": "Planning", "start": ["dateTime": "2027-02-01T09:00:00", "timeZone": "UTC"],
                "end": ["dateTime": "2027-02-01T10:00:00", "timeZone": "UTC"],
            ])
        let text = """
            [pair.p]
            local = "\(folder.file("vdir").path)"
            remote = "\(gate.proxied(try await graph.defaultCalendar()).absoluteString)"
            api = "graph"
            journal = "\(folder.file("journal.sqlite").path)"
            auth = "microsoft"
            client_id = "\(oauth["CLIENT_ID"])"
            \(oauth.pairConfigLines)
            """
        try Data(text.utf8).write(to: folder.file("config.toml"))
        try FileManager.default.createDirectory(at: folder.file("vdir"), withIntermediateDirectories: true)
        var environment = oauth.browserEnvironment()
        environment["XDG_STATE_HOME"] = folder.file("state").path
        func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                arguments + ["--config", folder.file("config.toml").path, "--pair", "p"], environment: environment)
        }
        let before = try await calgw(["sync"])
        #expect(before.status == 5 && before.stderrText.contains("calgw login --pair p"), "\(before.stderrText)")
        let login = try await calgw(["login"])
        #expect(login.status == 0, "\(login.stdoutText)\(login.stderrText)")
        let sync = try await calgw(["sync"])
        #expect(sync.status == 0, "\(sync.stdoutText)\(sync.stderrText)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.file("vdir").path)
        let texts = try files.map { try String(contentsOf: folder.file("vdir/\($0)"), encoding: .utf8) }
        #expect(texts.count == 1 && texts.first?.contains("SUMMARY:Planning") == true, "\(texts)")
        // Every request reached the fake through the gate, with the fake's own token.
        let requests = try await graph.requests()
        #expect(!requests.isEmpty && requests.allSatisfy { ($0["status"] as? Int ?? 0) < 400 }, "\(requests)")
    }

    @Test func aTokenFileOthersCanReadIsRefusedAsSshRefusesAKey() async throws {
        let p = try await pair()
        defer { p.finish() }
        #expect(try await p.run(["login"]).status == 0)
        chmod(p.tokenFile.path, 0o644)
        let sync = try await p.run(["sync"])
        #expect(sync.status == 2, "\(sync.stderrText)")
        #expect(sync.stderrText.contains("can be read by others") && sync.stderrText.contains("chmod 600"))
        chmod(p.tokenFile.path, 0o600)
        #expect(try await p.run(["sync"]).status == 0)
        // A folder others can write in is refused too: they could put their token in its place.
        let folder = p.tokenFile.deletingLastPathComponent().path
        chmod(folder, 0o777)
        let open = try await p.run(["sync"])
        #expect(
            open.status == 2 && open.stderrText.contains("can be written by others")
                && open.stderrText.contains("chmod 700"), "\(open.stderrText)")
        chmod(folder, 0o700)
        #expect(try await p.run(["sync"]).status == 0)
    }

    /// A second sign-in revokes the first one's refresh token (it stayed live at the provider).
    @Test func aSecondLoginRevokesTheFirstRefreshToken() async throws {
        let p = try await pair()
        defer { p.finish() }
        #expect(try await p.run(["login"]).status == 0)
        let first = try #require(try p.token()["refresh_token"] as? String)
        #expect(try await p.run(["login"]).status == 0)
        let second = try #require(try p.token()["refresh_token"] as? String)
        #expect(first != second)
        let used = try await p.oauth.tokenEndpoint([
            "grant_type": "refresh_token", "refresh_token": first, "client_id": p.oauth["CLIENT_ID"],
        ])
        #expect(used.status == 400, "the first sign-in's refresh token still works: \(used)")
        #expect(try await p.run(["sync"]).status == 0)
    }

    @Test func logoutRevokesTheTokenAndTheNextRunAsksForALogin() async throws {
        let p = try await pair()
        defer { p.finish() }
        #expect(try await p.run(["login"]).status == 0)
        #expect(try await p.run(["sync"]).status == 0)
        let refresh = try #require(try p.token()["refresh_token"] as? String)
        let logout = try await p.run(["logout"])
        #expect(logout.status == 0 && logout.stdoutText.contains("revoked"), "\(logout.stdoutText)\(logout.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: p.tokenFile.path))
        let used = try await p.oauth.tokenEndpoint([
            "grant_type": "refresh_token", "refresh_token": refresh, "client_id": p.oauth["CLIENT_ID"],
        ])
        #expect(used.status == 400, "the provider still takes the refresh token: \(used)")
        let sync = try await p.run(["sync"])
        #expect(sync.status == 5 && sync.stderrText.contains("calgw login --pair p"), "\(sync.stderrText)")
    }

    /// `status` says who is signed in, until when, and whether it renews itself, before
    /// anything fails; and, before `login`, that nobody is.
    @Test func statusShowsTheSignIn() async throws {
        let p = try await pair()
        defer { p.finish() }
        let before = try await p.run(["status"])
        #expect(before.stdoutText.contains("sign-in: none: run calgw login --pair p"), "\(before.stdoutText)")
        #expect(try await p.run(["login"]).status == 0)
        let text = try await p.run(["status"])
        #expect(
            text.stdoutText.contains("sign-in: alice@example.org (access token until ")
                && text.stdoutText.contains("renewed by each run"), "\(text.stdoutText)")
        let json = try await p.run(["status", "--json"])
        let record = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let signIn = try #require(record?["signIn"] as? [String: Any], "\(json.stdoutText)")
        #expect(signIn["signedIn"] as? Bool == true && signIn["account"] as? String == "alice@example.org")
        #expect(signIn["renewable"] as? Bool == true && signIn["expiresAt"] is String)
        #expect(signIn["tokenFile"] as? String == p.tokenFile.path)
    }

    /// A token file others could read holds a token that may have leaked: logout revokes it
    /// before deleting it (it was deleted unrevoked).
    @Test func logoutRevokesATokenFileOthersCouldRead() async throws {
        let p = try await pair()
        defer { p.finish() }
        #expect(try await p.run(["login"]).status == 0)
        let refresh = try #require(try p.token()["refresh_token"] as? String)
        chmod(p.tokenFile.path, 0o644)
        let refused = try await p.run(["sync"])
        #expect(refused.status == 2 && refused.stderrText.contains("calgw logout"), "\(refused.stderrText)")
        let logout = try await p.run(["logout"])
        #expect(logout.status == 0 && logout.stdoutText.contains("revoked"), "\(logout.stdoutText)\(logout.stderrText)")
        let used = try await p.oauth.tokenEndpoint([
            "grant_type": "refresh_token", "refresh_token": refresh, "client_id": p.oauth["CLIENT_ID"],
        ])
        #expect(used.status == 400, "the leaked refresh token still works: \(used)")
    }

    /// A provider that cannot be asked to revoke: logout says why and how, exits 1, and keeps
    /// the token so that a later logout revokes it (it said "did not confirm" after up to five
    /// minutes, exit 0, the token deleted unrevoked).
    @Test func logoutWithTheProviderDownKeepsTheTokenToRevokeLater() async throws {
        let p = try await pair()
        defer { p.finish() }
        #expect(try await p.run(["login"]).status == 0)
        let config = try String(contentsOf: p.config, encoding: .utf8)
        let closed = try TestPorts.closed()
        try Data(
            config.replacingOccurrences(
                of: "revocation_endpoint = \"\(p.oauth["REVOCATION_ENDPOINT"])\"",
                with: "revocation_endpoint = \"http://127.0.0.1:\(closed)/revoke/\""
            ).utf8
        ).write(to: p.config)
        let down = try await p.run(["logout"])
        #expect(down.status == 1, "\(down.stdoutText)\(down.stderrText)")
        #expect(
            down.stderrText.contains("did not revoke") && down.stderrText.contains("calgw logout again later"),
            "\(down.stderrText)")
        #expect(FileManager.default.fileExists(atPath: p.tokenFile.path))
        try Data(config.utf8).write(to: p.config)
        let later = try await p.run(["logout"])
        #expect(later.status == 0 && later.stdoutText.contains("revoked"), "\(later.stdoutText)\(later.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: p.tokenFile.path))
    }

    /// An address pasted back that is not this sign-in's answer is asked for again (it ended
    /// the sign-in).
    @Test func aWrongAddressPastedBackIsAskedForAgain() async throws {
        let p = try await pair()
        defer { p.finish() }
        let (result, out, err) = try await p.pastingBack(
            wrongFirst: "http://127.0.0.1:1/?code=elsewhere&state=another-sign-in",
            environment: ["BROWSER": "/bin/false"])
        #expect(result.status == 0, "\(result.stderrText)\(out)\(err)")
        #expect(out.contains("belongs to another sign-in"), "\(out)")
        #expect(out.contains("as alice@example.org"), "\(out)\(err)")
    }

    @Test func aDeclinedSignInSaysSoAndKeepsNoToken() async throws {
        let p = try await pair()
        defer { p.finish() }
        let login = try await p.run(["login"], decision: "deny")
        #expect(login.status == 5, "\(login.stdoutText)\(login.stderrText)")
        #expect(login.stderrText.contains("access_denied"), "\(login.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: p.tokenFile.path))
    }

    @Test func anAddressPastedBackSignsInWithoutABrowserOnThisMachine() async throws {
        let p = try await pair()
        defer { p.finish() }
        // calgw prints the address; the person opens it elsewhere and pastes back where the
        // browser ended (the browser's --print).
        let (result, out, err) = try await p.pastingBack(environment: ["BROWSER": "/bin/false"])
        #expect(result.status == 0, "\(result.stderrText)\(out)\(err)")
        #expect(out.contains("as alice@example.org"), "\(out)\(err)")
        #expect(try await p.run(["sync"]).status == 0)
        #expect(try await p.summariesOnServer() == ["Planning"])
    }

    /// No `$BROWSER`, no display: calgw says so and asks for the address to be pasted back at
    /// once, instead of waiting five minutes for a browser that never opens.
    @Test func withoutABrowserTheAddressIsAskedForAtOnce() async throws {
        let p = try await pair()
        defer { p.finish() }
        let (result, out, err) = try await p.pastingBack(
            "env -u BROWSER -u DISPLAY -u WAYLAND_DISPLAY \"$1\" login")
        #expect(result.status == 0, "\(result.stderrText)\(out)\(err)")
        #expect(out.contains("No browser can be opened here") && out.contains("paste"), "\(out)")
        #expect(!out.contains("Opening the sign-in page"), "\(out)")
        #expect(out.contains("as alice@example.org"), "\(out)\(err)")
    }

    /// The browser's tab tells the outcome, after the code was exchanged: a token endpoint that
    /// answers 404 makes the tab say the sign-in failed (it said "Signed in" before calgw had
    /// even asked), and the terminal names token_endpoint.
    @Test func theTabSaysHowTheSignInEndedAfterTheExchange() async throws {
        let p = try await pair()
        defer { p.finish() }
        let config = try String(contentsOf: p.config, encoding: .utf8)
        try Data(
            config.replacingOccurrences(
                of: "token_endpoint = \"\(p.oauth["TOKEN_ENDPOINT"])\"",
                with: "token_endpoint = \"\(p.oauth["URL"])o/no-such-endpoint/\""
            ).utf8
        ).write(to: p.config)
        let log = p.folder.file("browser.log")
        var environment = p.oauth.browserEnvironment()
        environment["XDG_STATE_HOME"] = p.folder.file("state").path
        environment["CALGW_OAUTH_BROWSER_LOG"] = log.path
        let login = try await CalgwBinary.run(
            ["login", "--config", p.config.path, "--pair", "p"], environment: environment)
        #expect(login.status != 0, "\(login.stdoutText)\(login.stderrText)")
        let page = try await Self.browserLog(log)
        #expect(page.contains("The sign-in failed") && !page.contains("Signed in to calgw"), "\(page)")
        #expect(login.stderrText.contains("token_endpoint") && !login.stderrText.contains("<"), "\(login.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: p.tokenFile.path))
        try Data(config.utf8).write(to: p.config)
        let good = try await p.run(["login"])
        #expect(good.status == 0, "\(good.stderrText)")
    }

    /// A provider that gives refresh tokens only for `offline_access` (Authelia, Authentik):
    /// calgw asks for it, since the provider's metadata offers it, and the sign-in renews
    /// itself. One that gives none: `login` says so at once and names the fix, instead of
    /// every run failing an hour later.
    /// A pair that names no scopes asks for `offline_access` too, with the OpenID scopes the
    /// provider lists.
    @Test(arguments: [("offline_access", true), ("never", true), ("offline_access", false)])
    func aSignInWithoutARefreshTokenIsSaidAtLogin(_ refreshTokens: String, namesScopes: Bool) async throws {
        let p = try await pair(
            settings: ["CALGW_OAUTH_ACCESS_TOKEN_SECONDS": "3600", "CALGW_OAUTH_REFRESH_TOKENS": refreshTokens],
            namesScopes: namesScopes)
        defer { p.finish() }
        let login = try await p.run(["login", "--json"])
        #expect(login.status == 0, "\(login.stderrText)")
        let record = try JSONSerialization.jsonObject(with: login.stdout) as? [String: Any]
        let token = try p.token()
        if refreshTokens == "offline_access" {
            #expect(token["refresh_token"] != nil, "no refresh token: offline_access was not asked")
            #expect(record?["refresh_token"] as? Bool == true, "\(login.stdoutText)")
            #expect(!login.stderrText.contains("no refresh token"), "\(login.stderrText)")
        } else {
            #expect(token["refresh_token"] == nil)
            #expect(record?["refresh_token"] as? Bool == false, "\(login.stdoutText)")
            #expect(
                login.stderrText.contains("gave no refresh token") && login.stderrText.contains("about 60 minutes")
                    && login.stderrText.contains("offline_access"), "\(login.stderrText)")
        }
    }

    /// Microsoft's refusals a newcomer meets are named with what to set: the portal's default
    /// single-tenant registration against tenant "common" (AADSTS50194), through the browser
    /// and through the device grant, as Entra ID answers them.
    @Test func microsoftsTenantTrapIsNamedWithTheTenantToSet() async throws {
        let p = try await pair(
            settings: [
                "CALGW_OAUTH_AUTHORIZE_ERROR":
                    "invalid_request:AADSTS50194: Application 'calgw' is not configured as a multi-tenant "
                    + "application. Usage of the /common endpoint is not supported for such applications created "
                    + "after '10/15/2018'. Use a tenant-specific endpoint or configure the application to be multi-tenant."
            ])
        defer { p.finish() }
        for arguments in [["login"], ["login", "--device"]] {
            let login = try await p.run(arguments)
            #expect(login.status == 5, "\(arguments): \(login.stderrText)")
            #expect(
                login.stderrText.contains("AADSTS50194") && login.stderrText.contains("tenant = \""),
                "\(arguments): \(login.stderrText)")
        }
        #expect(!FileManager.default.fileExists(atPath: p.tokenFile.path))
    }

    /// A client_id the provider does not know: the device grant's refusal names client_id, not
    /// a username or a password command the pair does not have.
    @Test func anUnknownClientIsNamedAsTheClientID() async throws {
        let p = try await pair()
        defer { p.finish() }
        let config = try String(contentsOf: p.config, encoding: .utf8)
        try Data(
            config.replacingOccurrences(
                of: "client_id = \"\(p.oauth["CLIENT_ID"])\"", with: "client_id = \"no-such-client\""
            ).utf8
        ).write(to: p.config)
        let login = try await p.run(["login", "--device"])
        #expect(login.status == 5, "\(login.stderrText)")
        #expect(
            login.stderrText.contains("client_id") && !login.stderrText.contains("username"), "\(login.stderrText)")
    }

    /// A client secret the token endpoint refuses (401 `invalid_client`, RFC 6749 §5.2) is named
    /// as the client's, not as a username or password the pair does not have.
    @Test func aRefusedClientSecretIsNamedAsTheClients() async throws {
        let p = try await pair(auth: "google")
        defer { p.finish() }
        let config = try String(contentsOf: p.config, encoding: .utf8)
        try Data(
            config.replacingOccurrences(
                of: "client_secret = \"\(p.oauth["CONFIDENTIAL_CLIENT_SECRET"])\"", with: "client_secret = \"wrong\""
            ).utf8
        ).write(to: p.config)
        let login = try await p.run(["login"])
        #expect(login.status == 5, "\(login.stderrText)")
        #expect(
            login.stderrText.contains("client_secret") && !login.stderrText.contains("username"), "\(login.stderrText)")
    }

    @Test func theDeviceGrantSignsInWithACodeEnteredElsewhere() async throws {
        let p = try await pair()
        defer { p.finish() }
        let script = """
            set -e
            cd "$0"
            "$1" login --device --config config.toml --pair p > out 2> err & pid=$!
            for i in $(seq 100); do grep -q "enter the code" out && break; sleep 0.1; done
            code=$(sed -n 's/.*enter the code \\([^ ]*\\).*/\\1/p' out | head -1)
            "$2" --device "$code"
            wait $pid
            """
        let (result, out, err) = try await p.beside(script)
        #expect(result.status == 0, "\(result.stderrText)\(out)\(err)")
        #expect(out.contains("as alice@example.org"), "named from userinfo: \(out)\(err)")
        #expect(try await p.run(["sync"]).status == 0)
    }

    /// The Google preset, its endpoints pointed at the test server: the client's secret goes
    /// to the token endpoint, the refresh token stays the same (Google never rotates it), and
    /// the device grant is refused with the reason.
    @Test func theGooglePresetSignsInWithItsSecretAndRefusesTheDeviceGrant() async throws {
        let p = try await pair(
            auth: "google",
            settings: ["CALGW_OAUTH_ACCESS_TOKEN_SECONDS": "60", "CALGW_OAUTH_ROTATE_REFRESH_TOKEN": "0"])
        defer { p.finish() }
        let device = try await p.run(["login", "--device"])
        #expect(device.status == 2 && device.stderrText.contains("Google does not allow"), "\(device.stderrText)")
        let login = try await p.run(["login"])
        #expect(login.status == 0 && login.stdoutText.contains("as alice@example.org"), "\(login.stderrText)")
        let refresh = try p.token()["refresh_token"] as? String
        #expect(try await p.run(["sync"]).status == 0)
        #expect(try p.token()["refresh_token"] as? String == refresh)
        #expect(try await p.summariesOnServer() == ["Planning"])
    }

    /// A `status` in a status bar and a timer's `sync`, at once, each needing a renewal, on a
    /// provider that takes each refresh token once: neither is refused by the provider, and the
    /// token file holds a refresh token the provider still takes. (One may find the other
    /// holding the pair past the lock's five seconds on a busy machine, and say so.)
    @Test func twoRunsRenewingAtOnceKeepTheRotatedToken() async throws {
        let p = try await pair()
        defer { p.finish() }
        #expect(try await p.run(["login"]).status == 0)
        var results: [ProcessRunner.Result] = []
        for _ in 0..<2 {
            async let sync = p.run(["sync"])
            async let status = p.run(["status"])
            results += [try await sync, try await status]
        }
        for result in results {
            #expect(
                result.status == 0 || (result.status == 1 && result.stderrText.contains("another calgw run")),
                "\(result.stderrText)")
        }
        #expect(results.contains { $0.status == 0 })
        #expect(try await p.run(["sync"]).status == 0, "the kept refresh token still works")
    }

    /// Killed at any instant of a renewal (SIGKILL after 0 to 400 ms of a run that renews), the
    /// pair stays signed in where the provider keeps a rotated-out refresh token valid a while
    /// (Microsoft does; here 60 s): the next run works. The load run kills 30 times.
    @Test func aRunKilledDuringARenewalLeavesThePairSignedIn() async throws {
        let p = try await pair(
            settings: ["CALGW_OAUTH_ACCESS_TOKEN_SECONDS": "60", "CALGW_OAUTH_REFRESH_GRACE_SECONDS": "60"])
        defer { p.finish() }
        #expect(try await p.run(["login"]).status == 0)
        let calgw = CalgwBinary.url.path
        var environment = p.oauth.browserEnvironment()
        environment["XDG_STATE_HOME"] = p.folder.file("state").path
        var random = SeededRandom(seed: 53)
        for kill in 0..<TestLoad.size(6, load: 30) {
            let delay = Double(Int.random(in: 0...400, using: &random)) / 1000
            _ = try await ProcessRunner.run(
                "bash",
                [
                    "-c",
                    "\"$0\" sync --config \"$1\" --pair p >/dev/null 2>&1 & pid=$!; sleep \(delay); "
                        + "kill -KILL $pid 2>/dev/null; wait $pid || true",
                    calgw, p.config.path,
                ], environment: environment)
            let next = try await p.run(["sync"])
            #expect(next.status == 0, "killed after \(delay) s (kill \(kill)): \(next.stderrText)")
        }
        #expect(try await p.summariesOnServer() == ["Planning"])
    }

    /// `init --auth … --login` writes the pair and signs it in; without `--login` it says the
    /// next step. `login` on a pair without `auth` says why and which pairs sign in.
    @Test func initWritesAnOAuthPairAndSignsItIn() async throws {
        let oauth = try TestOAuthServer.shared()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("config.toml").path
        var environment = oauth.browserEnvironment()
        environment["XDG_STATE_HOME"] = folder.file("state").path
        let google = try await CalgwBinary.run(
            [
                "init", "--config", config, "--local", folder.file("google").path, "--remote",
                "https://apidata.googleusercontent.com/caldav/v2/alice%40example.org/events/", "--auth", "google",
                "--client-id", "1234-abc.apps.googleusercontent.com", "--client-secret", "GOCSPX-x", "--pair", "google",
            ], environment: environment)
        #expect(google.status == 0, "\(google.stderrText)")
        #expect(google.stdoutText.contains("next: calgw login --pair google"), "\(google.stdoutText)")
        let signed = try await CalgwBinary.run(
            [
                "init", "--config", config, "--local", folder.file("team").path, "--remote",
                "https://dav.example.org/calendars/alice/team/", "--auth", "oauth", "--client-id", oauth["CLIENT_ID"],
                "--authorization-endpoint", oauth["AUTHORIZATION_ENDPOINT"], "--token-endpoint",
                oauth["TOKEN_ENDPOINT"], "--pair", "team", "--login", "--device-authorization-endpoint",
                oauth["DEVICE_AUTHORIZATION_ENDPOINT"], "--revocation-endpoint", oauth["REVOCATION_ENDPOINT"],
                "--scope", "openid", "--scope", "calendar",
            ], environment: environment)
        #expect(signed.status == 0, "\(signed.stdoutText)\(signed.stderrText)")
        #expect(signed.stdoutText.contains("Signed in pair team"), "\(signed.stdoutText)")
        // What comes next is said after the sign-in, not before it.
        let said = signed.stdoutText
        #expect(
            said.range(of: "Signed in pair team").map {
                said[$0.upperBound...].contains("next: calgw sync --pair team")
            }
                == true && said.components(separatedBy: "next: calgw sync").count == 2, "\(said)")
        #expect(FileManager.default.fileExists(atPath: folder.file("state/calgw/team.token.json").path))
        let text = try String(contentsOfFile: config, encoding: .utf8)
        #expect(text.contains("auth = \"google\"") && text.contains("client_secret = \"GOCSPX-x\""))
        // init writes every sign-in key a provider may need, and they read back.
        #expect(
            text.contains("device_authorization_endpoint = \"\(oauth["DEVICE_AUTHORIZATION_ENDPOINT"])\"")
                && text.contains("revocation_endpoint = ") && text.contains("scopes = [\"openid\", \"calendar\"]"),
            "\(text)")
        let out = try await CalgwBinary.run(["logout", "--config", config, "--pair", "team"], environment: environment)
        #expect(out.status == 0 && out.stdoutText.contains("revoked"), "\(out.stdoutText)\(out.stderrText)")

        try Data(
            "[pair.plain]\nlocal = \"\(folder.file("plain").path)\"\nremote = \"https://dav.example.org/x/\"\n".utf8
        )
        .write(to: folder.file("plain.toml"))
        let plain = try await CalgwBinary.run(["login", "--config", folder.file("plain.toml").path])
        #expect(plain.status == 2 && plain.stderrText.contains("does not sign in with OAuth: it has no auth key"))
        let notThis = try await CalgwBinary.run(["login", "--config", config, "--pair", "google", "--device"])
        #expect(notThis.status == 2 && notThis.stderrText.contains("Google does not allow"), "\(notThis.stderrText)")
    }

    @Test func aGooglePairWithoutItsSecretIsAConfigurationError() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(
            """
            [pair.p]
            local = "\(folder.file("vdir").path)"
            remote = "https://apidata.googleusercontent.com/caldav/v2/alice%40example.org/events/"
            auth = "google"
            client_id = "1234-abc.apps.googleusercontent.com"

            """.utf8
        ).write(to: folder.file("config.toml"))
        let result = try await CalgwBinary.run(["login", "--config", folder.file("config.toml").path])
        #expect(result.status == 2 && result.stderrText.contains("client_secret"), "\(result.stderrText)")
    }
}
