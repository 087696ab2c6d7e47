import ArgumentParser
import CalendarSync
import Foundation
import OAuth

/// `calgw logout`: revokes a pair's token where the provider can, and deletes it.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke a pair's OAuth sign-in and delete its token.",
        discussion: """
            Revokes the token at the provider where it offers revocation (RFC 7009; a token \
            file others could read is revoked too), then deletes it. The provider is waited for \
            at most 20 seconds; when it cannot be asked, the token is kept so that a later \
            calgw logout can revoke it, and the command exits 1 saying so.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if global.all { throw ValidationError("logout signs one pair out: name it with --pair") }
    }

    func run() async throws {
        let pair = try global.loadConfig().select(pair: global.pair, all: false)[0]
        guard let signIn = pair.login.oauth else {
            throw CLIError("pair \(pair.name) does not sign in with OAuth", status: .usage)
        }
        switch try await OAuthLogin(signIn, caFile: pair.caFile).logout() {
        case .notSignedIn:
            Terminal.out("Pair \(pair.name) was not signed in.")
        case .revoked:
            Terminal.out("Signed out pair \(pair.name): the provider revoked the token and calgw deleted it.")
        case .deleted(let offered):
            Terminal.out(
                "Signed out pair \(pair.name): calgw deleted the token"
                    + (offered
                        ? ", but the provider did not confirm revoking it."
                        : " (the provider offers no revocation; it expires by itself)."))
        }
    }
}
