import Foundation

/// Where and how a pair signs in with OAuth 2.0 (`auth = "google"`, `"microsoft"` or
/// `"oauth"` in the config): the provider's endpoints, the client calgw signs in as, and the
/// scopes it asks for. The presets carry Google's and Microsoft's endpoints; each endpoint
/// key of the config replaces a preset's (a national cloud, a test server).
public struct OAuthProvider: Equatable, Sendable {
    /// Which provider's rules apply.
    public enum Preset: String, Sendable, CaseIterable {
        /// Google: a desktop client with its secret, loopback on 127.0.0.1, no device grant for
        /// the calendar scope, refresh tokens that never rotate.
        case google
        /// Microsoft identity platform: a public client, loopback on `localhost` (the only
        /// host its registrations take over http), the device grant offered.
        case microsoft
        /// Any OAuth 2.0 server, its endpoints given in the config.
        case oauth

        /// Every preset's name as the config's `auth` takes it, for messages: `google, microsoft, oauth`.
        public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
    }

    public var preset: Preset
    public var clientID: String
    /// Google's desktop clients carry a secret the token endpoint asks for; it protects
    /// nothing (the client is public by nature), so it may stand in the config.
    public var clientSecret: String?
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    /// RFC 8628's endpoint, for `calgw login --device`; nil where the provider offers none.
    public var deviceAuthorizationEndpoint: URL?
    /// RFC 7009's endpoint, for `calgw logout`; nil where the provider offers none.
    public var revocationEndpoint: URL?
    /// OpenID Connect's userinfo, asked for the account's name when no id token came.
    public var userinfoEndpoint: URL?
    public var scopes: [String]

    /// A provider with every endpoint given.
    public init(
        preset: Preset, clientID: String, clientSecret: String? = nil, authorizationEndpoint: URL,
        tokenEndpoint: URL, deviceAuthorizationEndpoint: URL? = nil, revocationEndpoint: URL? = nil,
        userinfoEndpoint: URL? = nil, scopes: [String]
    ) {
        self.preset = preset
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.scopes = scopes
    }

    /// Google's endpoints and the scopes its CalDAV endpoint needs: the full calendar scope
    /// (`calendar.events` alone is refused), and `openid email` to name the account.
    public static func google(clientID: String, clientSecret: String?, scopes: [String]? = nil) -> OAuthProvider {
        OAuthProvider(
            preset: .google, clientID: clientID, clientSecret: clientSecret,
            authorizationEndpoint: URL(string: "https://accounts.google.com/o/oauth2/v2/auth")!,
            tokenEndpoint: URL(string: "https://oauth2.googleapis.com/token")!,
            revocationEndpoint: URL(string: "https://oauth2.googleapis.com/revoke")!,
            userinfoEndpoint: URL(string: "https://openidconnect.googleapis.com/v1/userinfo")!,
            scopes: scopes ?? ["openid", "email", "https://www.googleapis.com/auth/calendar"])
    }

    /// Microsoft's endpoints for `tenant` (`common`, `organizations`, `consumers`, or a
    /// tenant's id or domain) and the scopes a calendar needs, with `offline_access` for a
    /// refresh token. Microsoft offers no revocation endpoint: `logout` forgets the token.
    public static func microsoft(clientID: String, tenant: String?, scopes: [String]? = nil) -> OAuthProvider {
        let base = "https://login.microsoftonline.com/\(tenant ?? "common")/oauth2/v2.0/"
        return OAuthProvider(
            preset: .microsoft, clientID: clientID,
            authorizationEndpoint: URL(string: base + "authorize")!, tokenEndpoint: URL(string: base + "token")!,
            deviceAuthorizationEndpoint: URL(string: base + "devicecode")!,
            userinfoEndpoint: URL(string: "https://graph.microsoft.com/oidc/userinfo")!,
            scopes: scopes ?? ["offline_access", "openid", "email", "Calendars.ReadWrite"])
    }

    /// The host of the loopback redirect (RFC 8252 §7.3): `localhost` for Microsoft, whose
    /// registrations take no other http host, `127.0.0.1` for the rest.
    public var loopbackHost: String { preset == .microsoft ? "localhost" : "127.0.0.1" }

    /// Why the device grant cannot be used, or nil when it can.
    public var deviceGrantRefusal: String? {
        if preset == .google {
            return "Google does not allow the calendar scope with the device grant; "
                + "calgw login opens a browser instead (or --no-browser, to sign in from another machine)"
        }
        if deviceAuthorizationEndpoint == nil {
            return "the provider offers no device grant: give device_authorization_endpoint, "
                + "or sign in with a browser (--no-browser for another machine)"
        }
        return nil
    }
}
