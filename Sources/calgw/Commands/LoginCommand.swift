import ArgumentParser
import CalendarSync
import Foundation
import OAuth

/// `calgw login`: signs a pair in with OAuth 2.0 (`auth = "google"`, `"microsoft"` or
/// `"oauth"`), once; every later run renews the token by itself.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign a pair in to its OAuth 2.0 provider.",
        discussion: """
            Opens the provider's sign-in page in a browser ($BROWSER when it is set, else \
            xdg-open; the address is printed too) and takes the answer on a listener on this \
            machine's loopback address. The token is kept in $XDG_STATE_HOME/calgw/PAIR.token.json \
            (mode 0600) and renewed by every run; calgw logout revokes and deletes it.

            --no-browser prints the address to open on any machine and reads back the address \
            the browser ended on (it fails to load there: copy it from the address bar), for a \
            machine reached over SSH. --device shows a code to enter on another device, where \
            the provider offers it (Microsoft; not Google for calendars).

            Examples:
              calgw login --pair google
              calgw login --pair work --device
              ssh host calgw login --no-browser
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Sign in on another device with a code (RFC 8628), where the provider allows it.")
    var device = false

    @Flag(help: "Print the address instead of opening a browser, and read back where the browser ended.")
    var noBrowser = false

    func validate() throws {
        if device && noBrowser { throw ValidationError("--device and --no-browser exclude each other") }
        if global.all { throw ValidationError("login signs one pair in: name it with --pair") }
    }

    func run() async throws {
        let config = try global.loadConfig()
        let pair = try config.select(pair: global.pair, all: false, takesAll: false)[0]
        guard let signIn = pair.login.oauth else {
            let signing = config.pairs.filter { $0.login.oauth != nil }.map(\.name)
            let why =
                pair.login.tokenCommand != nil
                ? "it gets its token from token_command"
                : pair.login.username != nil ? "it signs in with a password" : "it has no auth key"
            throw CLIError(
                "pair \(pair.name) does not sign in with OAuth: \(why)",
                hint: signing.isEmpty
                    ? "add auth (one of \(OAuthProvider.Preset.names)) and client_id to it "
                        + "(docs/guide.md, Signing in)"
                    : "pairs that sign in with OAuth: \(signing.joined(separator: ", "))",
                status: .usage)
        }
        try await Self.signIn(pair, signIn, device: device, noBrowser: noBrowser, output: output)
    }
}

extension LoginCommand {
    /// Signs `pair` in by the flow asked for and says as whom (also `init --auth … --login`).
    /// The person's instructions go to stdout, or to stderr with `--json`, whose one document
    /// says who signed in: `{"pair", "account", "token_file", "missing_scopes", "refresh_token", "expires_in"}`.
    static func signIn(
        _ pair: PairConfiguration, _ signIn: OAuthSignIn, device: Bool, noBrowser: Bool, output: OutputOptions
    ) async throws {
        let toStderr = output.json
        let say: @Sendable (String) -> Void = { toStderr ? Terminal.err($0) : Terminal.out($0) }
        let login = try OAuthLogin(signIn, caFile: pair.caFile)
        let signedIn: OAuthLogin.SignedIn
        if device {
            signedIn = try await login.withDevice { code in
                let address = code.verificationURIComplete ?? code.verificationURI
                say("To sign in, open \(address) and enter the code \(code.userCode)")
                say("(waiting up to \(Int(code.expiresIn / 60)) minutes)")
            }
        } else if noBrowser || BrowserLauncher.unavailable() != nil {
            if !noBrowser, let why = BrowserLauncher.unavailable() {
                say("No browser can be opened here: \(why). Sign in from any machine's browser instead.")
            }
            signedIn = try await login.withPastedAnswer(
                show: { url in
                    say(
                        "Open this address in a browser on any machine and sign in:\n\n  \(url.absoluteString)\n")
                    say(
                        "The browser then fails to load a http://\(signIn.provider.loopbackHost):… page; "
                            + "paste that page's address here:"
                    )
                },
                read: { readLine(strippingNewline: true) }, complain: say)
        } else {
            signedIn = try await login.withBrowser { url, prompt in
                say(prompt)
                BrowserLauncher.open(url)
            }
        }
        if output.json {
            try Terminal.printJSON(signedIn.record(pair: pair.name))
        } else if !output.quiet {
            say("Signed in pair \(pair.name)" + (signedIn.account.map { " as \($0)" } ?? "") + ".")
        }
        // Said now, not an hour from now when every run fails: the sign-in cannot renew itself.
        if let advice = login.refreshTokenAdvice(signedIn) {
            let lasting = signedIn.expiresIn.map { " (about \(max(1, Int($0 / 60))) minutes)" } ?? ""
            Terminal.err(
                "warning: the provider gave no refresh token: this sign-in lasts only as long as its access token"
                    + "\(lasting), then every run asks for calgw login again")
            Terminal.err("hint: \(advice)")
        }
        if !signedIn.missingScopes.isEmpty {
            Terminal.err(
                "warning: the provider did not grant \(signedIn.missingScopes.joined(separator: ", ")); "
                    + "calgw may be refused: run calgw login again and allow all that is asked")
        }
    }
}
