import Foundation

/// A pair's sign-in as its token file tells it, without asking the provider: `calgw status`
/// shows it before anything fails (who is signed in, until when the access token lasts,
/// whether it renews itself, where the token is kept).
public struct SignInState: Encodable, Sendable {
    /// Whether a token is kept for the pair.
    public var signedIn: Bool
    /// The account, as the provider named it at sign-in.
    public var account: String?
    /// The token file's path.
    public var tokenFile: String
    /// When the access token stops working (RFC 3339, UTC); a run renews it before then.
    public var expiresAt: String?
    /// Whether a refresh token is kept: without one, the sign-in ends at `expiresAt`.
    public var renewable: Bool
    /// Why the token cannot be used (a file others can read, one that is not calgw's).
    public var problem: String?

    /// The state of `signIn`'s token file.
    public static func read(_ signIn: OAuthSignIn) -> SignInState {
        let file = TokenFile(url: signIn.tokenFile)
        var state = SignInState(signedIn: false, tokenFile: file.url.path, renewable: false)
        do {
            guard let token = try file.read() else { return state }
            state.signedIn = true
            state.account = token.account
            state.renewable = token.refreshToken != nil
            state.expiresAt = token.expiresAt.map {
                ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0.rounded(.down)))
            }
        } catch {
            state.problem = (error as? SignInError)?.message ?? "\(error)"
        }
        return state
    }

    /// One line for `status`: who, until when, and what to do when nobody is signed in.
    public func line(pair: String) -> String {
        if let problem { return "sign-in: unusable: \(problem)" }
        guard signedIn else { return "sign-in: none: run calgw login --pair \(pair)" }
        let who = account ?? "an account the provider did not name"
        let until = expiresAt.map { "access token until \($0), " } ?? ""
        return "sign-in: \(who) (\(until)"
            + (renewable ? "renewed by each run" : "no refresh token: calgw login again then")
            + "; token in \(tokenFile))"
    }
}
