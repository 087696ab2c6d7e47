import Foundation
import HTTP

/// The access token of a signed-in pair, renewed by itself: before it expires (with a margin,
/// so that a run does not start with a token that dies halfway), and when the server refused
/// it. A renewal runs under the pair's token lock and writes the answer durably before the
/// new token is used, so a rotated refresh token is never lost, not to a crash nor to a
/// second calgw renewing at the same moment (it finds the token renewed and uses it).
public final class OAuthSession: Sendable {
    /// Renew when the access token has less than this left.
    static let renewalMargin: TimeInterval = 120
    /// A token another run renewed is taken while it has this much left.
    static let takeOverMargin: TimeInterval = 15

    let signIn: OAuthSignIn
    let endpoint: TokenEndpoint
    var file: TokenFile { TokenFile(url: signIn.tokenFile) }

    /// The session of `signIn`, renewing its token through `http`.
    public init(_ signIn: OAuthSignIn, http: HTTPClient) {
        self.signIn = signIn
        endpoint = TokenEndpoint(provider: signIn.provider, http: http)
    }

    /// A bearer token for requests; a renewed one when `refresh` is true (the server refused
    /// the last) or the stored one is about to expire.
    /// - Throws: ``SignInError``: `.notSignedIn`, `.signInExpired` (both naming `calgw login`),
    ///   the token file's errors, the provider's malformed answers.
    public func accessToken(refresh: Bool) async throws -> String {
        let stored = try current()
        if !refresh && !stored.expires(within: Self.renewalMargin) { return stored.accessToken }
        return try await file.locked {
            let latest = try current()
            // Another calgw renewed it meanwhile: use that one while it works at all. Renewing
            // again (a provider whose tokens live less than the margin) revokes the token the
            // other run is using, which then renews again, and so on.
            if latest.accessToken != stored.accessToken && !latest.expires(within: Self.takeOverMargin) {
                return latest.accessToken
            }
            return try await renew(latest)
        }
    }

    /// The stored token, if it was issued for this pair's client and endpoint.
    private func current() throws -> StoredToken {
        let provider = signIn.provider
        guard let stored = try file.read() else {
            throw SignInError(
                .notSignedIn,
                "pair \(signIn.pair) is not signed in to \(provider.tokenEndpoint.host ?? "its provider")",
                recovery: "run \(signIn.loginCommand)")
        }
        guard stored.clientID == provider.clientID, stored.tokenEndpoint == provider.tokenEndpoint.absoluteString
        else {
            throw SignInError(
                .notSignedIn, "pair \(signIn.pair) was signed in with another client or provider than it names now",
                recovery: "run \(signIn.loginCommand)")
        }
        return stored
    }

    private func renew(_ stored: StoredToken) async throws -> String {
        guard let refreshToken = stored.refreshToken else {
            throw SignInError(
                .signInExpired, "the sign-in of pair \(signIn.pair) has expired (the provider gave no refresh token)",
                recovery: "run \(signIn.loginCommand)")
        }
        switch try await endpoint.refresh(refreshToken) {
        case .granted(let granted):
            var renewed = stored
            renewed.accessToken = granted.accessToken
            renewed.expiresAt = granted.expiresIn.map { Date().timeIntervalSince1970 + $0 }
            // Google keeps the refresh token it gave; others rotate it with every use.
            if let rotated = granted.refreshToken { renewed.refreshToken = rotated }
            if let scope = granted.scope { renewed.scope = scope }
            try file.write(renewed)
            return renewed.accessToken
        case .refused(let refusal) where refusal.error == "invalid_grant":
            throw SignInError(
                .signInExpired,
                "the sign-in of pair \(signIn.pair) has expired or was revoked (\(refusal.text))",
                recovery: "run \(signIn.loginCommand)")
        case .refused(let refusal):
            throw SignInError(
                .refused, "the provider refused to renew the sign-in of pair \(signIn.pair) (\(refusal.text))",
                recovery: "run \(signIn.loginCommand)")
        }
    }
}
