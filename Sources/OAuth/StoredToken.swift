import Foundation

/// What a sign-in leaves behind, as the token file holds it: the tokens, when the access
/// token expires, and for whom and through which client they were issued (a token of
/// another client or endpoint is not used: the pair's settings changed since `login`).
public struct StoredToken: Codable, Equatable, Sendable {
    public var accessToken: String
    /// Seconds since 1970 when the access token stops working; nil: the provider did not say.
    public var expiresAt: Double?
    public var refreshToken: String?
    /// The scopes granted, as the provider wrote them (a person may grant fewer than asked).
    public var scope: String?
    /// The account signed in (an e-mail address), when the provider said.
    public var account: String?
    public var clientID: String
    public var tokenEndpoint: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", expiresAt = "expires_at", refreshToken = "refresh_token", scope, account
        case clientID = "client_id", tokenEndpoint = "token_endpoint"
    }

    /// Whether the access token expires within `margin` seconds of `now`.
    func expires(within margin: TimeInterval, of now: Date = Date()) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt - margin <= now.timeIntervalSince1970
    }
}
