import ArgumentParser
import CalendarSync
import Foundation
import OAuth

/// `calgw logout`: revokes a pair's token where the provider can, and deletes it.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke a pair's OAuth sign-in and delete its token.")

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
        let (revoked, hadToken) = try await OAuthLogin(signIn, caFile: pair.caFile).logout()
        if !hadToken {
            Terminal.out("Pair \(pair.name) was not signed in.")
        } else if revoked {
            Terminal.out("Signed out pair \(pair.name): the provider revoked the token and calgw deleted it.")
        } else {
            Terminal.out(
                "Signed out pair \(pair.name): calgw deleted the token"
                    + (signIn.provider.revocationEndpoint == nil
                        ? " (the provider offers no revocation; it expires by itself)."
                        : ", but the provider did not confirm revoking it."))
        }
    }
}
