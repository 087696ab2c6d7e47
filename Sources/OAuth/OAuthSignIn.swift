import Foundation

/// A pair's OAuth sign-in: the provider and client, and where the pair's token is kept.
/// ``SignIn/oauth`` carries one; `calgw login` makes the token (``OAuthLogin``), every run
/// renews it by itself (``OAuthSession``).
public struct OAuthSignIn: Equatable, Sendable {
    public var provider: OAuthProvider
    /// `$XDG_STATE_HOME/calgw/<pair>.token.json` unless the pair says otherwise.
    public var tokenFile: URL
    /// The pair's name, for messages that say which `calgw login` to run.
    public var pair: String

    public init(provider: OAuthProvider, tokenFile: URL, pair: String) {
        self.provider = provider
        self.tokenFile = tokenFile
        self.pair = pair
    }

    /// The command that signs this pair in again.
    var loginCommand: String { "calgw login --pair \(pair)" }
}
