import Foundation
import Testing
import CalgwTestSupport

extension SignInTests {
    /// Microsoft's redirect names `localhost`, which a browser may resolve to [::1] first.
    /// Where calgw cannot listen on [::1] (here a network namespace of its own, with IPv6 off
    /// on its loopback, the test's authorization server and browser inside it), the redirect
    /// names 127.0.0.1, the address listened on, and the prompt says what the app registration
    /// must list for it; the sign-in completes. Needs unprivileged user namespaces
    /// (`unshare -rn`), as on most Linux systems.
    @Test func withoutIPv6OnLoopbackMicrosoftsRedirectNamesTheAddressListenedOn() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = """
            set -eu
            cd "$0"
            PATH=$PATH:/usr/sbin:/sbin
            ip link set lo up
            echo 1 > /proc/sys/net/ipv6/conf/lo/disable_ipv6
            "$3" start oauth > server.env
            trap '"$3" stop oauth' EXIT
            while IFS== read -r name value; do export "$name=$value"; done < server.env
            mkdir vdir
            cat > config.toml <<END
            [pair.p]
            local = "$PWD/vdir"
            remote = "https://graph.microsoft.com/v1.0/me/calendar"
            api = "graph"
            auth = "microsoft"
            client_id = "$CALGW_OAUTH_CLIENT_ID"
            authorization_endpoint = "$CALGW_OAUTH_AUTHORIZATION_ENDPOINT"
            token_endpoint = "$CALGW_OAUTH_TOKEN_ENDPOINT"
            scopes = ["openid", "email", "calendar"]
            END
            BROWSER="$2" CALGW_OAUTH_STATE="$PWD/oauth" CALGW_OAUTH_BROWSER_LOG="$PWD/browser.log" \\
                XDG_STATE_HOME="$PWD/state" "$1" login --config config.toml --pair p
            """
        let root = TestPaths.packageRoot
        let login = try await ProcessRunner.run(
            "unshare",
            [
                "-rn", "bash", "-c", script, folder.url.path, CalgwBinary.url.path,
                root.appendingPathComponent("Scripts/oauth/browser").path,
                root.appendingPathComponent("Scripts/oauth/server").path,
            ], deadline: 180)
        #expect(login.status == 0, "\(login.stdoutText)\(login.stderrText)")
        let redirect = login.stdoutText.firstMatch(of: /redirect_uri=([^&\s]+)/).map { String($0.1) }
        #expect(
            redirect?.removingPercentEncoding?.hasPrefix("http://127.0.0.1:") == true,
            "the redirect names an address nobody may listen on: \(redirect ?? login.stdoutText)")
        #expect(login.stdoutText.contains("must list http://127.0.0.1"), "\(login.stdoutText)")
        let page = try await Self.browserLog(folder.file("browser.log"))
        #expect(page.contains("Signed in to calgw"), "\(page)")
        #expect(FileManager.default.fileExists(atPath: folder.file("state/calgw/p.token.json").path))
    }
}
