import OAuth

/// How calgw signs in to a server: a user name and where its password comes from, a command
/// printing an OAuth2 bearer token, or an OAuth 2.0 sign-in calgw makes and renews itself
/// (`calgw login`: Google, Microsoft, any OAuth 2.0 provider).
///
/// A token command wins over a user name; a password without a user name is a mistake in the
/// configuration, said when a client is first made (``ConnectionFailure/passwordWithoutUsername``).
public struct SignIn: Equatable, Sendable {
    /// The user name for Basic or Digest authentication; nil: none, unless a token is used.
    public var username: String?
    /// Where the password comes from; nil: an empty password (or none without a user name).
    public var password: SecretSource?
    /// A program (and arguments) printing a bearer token; run when the first request needs
    /// it, and once more after a 401.
    public var tokenCommand: [String]?
    /// The OAuth sign-in whose token the pair's requests carry, renewed by itself.
    public var oauth: OAuthSignIn?

    /// A sign-in with what is known of it; all nil: requests go without credentials.
    public init(username: String? = nil, password: SecretSource? = nil, tokenCommand: [String]? = nil) {
        self.username = username
        self.password = password
        self.tokenCommand = tokenCommand
    }
}
