import ArgumentParser
import OAuth

/// `init`'s OAuth options: the pair signs in with `calgw login` instead of a password.
struct OAuthOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Sign in with OAuth 2.0: \(OAuthProvider.Preset.names) (then calgw login).", valueName: "kind"))
    var auth: String?

    @Option(help: ArgumentHelp("The OAuth client calgw signs in as (one you register).", valueName: "id"))
    var clientID: String?

    @Option(
        help: ArgumentHelp(
            "The client's secret, where the provider gives its desktop clients one.", valueName: "secret"))
    var clientSecret: String?

    @Option(help: ArgumentHelp("Microsoft's tenant (default: common).", valueName: "tenant"))
    var tenant: String?

    @Option(help: ArgumentHelp("With --auth oauth: the provider's authorization endpoint.", valueName: "url"))
    var authorizationEndpoint: String?

    @Option(help: ArgumentHelp("With --auth oauth: the provider's token endpoint.", valueName: "url"))
    var tokenEndpoint: String?

    @Option(help: ArgumentHelp("With --auth oauth: the device authorization endpoint (RFC 8628).", valueName: "url"))
    var deviceAuthorizationEndpoint: String?

    @Option(help: ArgumentHelp("With --auth oauth: the revocation endpoint (RFC 7009).", valueName: "url"))
    var revocationEndpoint: String?

    @Option(name: .customLong("scope"), help: ArgumentHelp("A scope to ask for (repeatable).", valueName: "scope"))
    var scopes: [String] = []

    @Flag(help: "With --auth: sign in right away (as calgw login does) once the pair is written.")
    var login = false

    func validate() throws {
        guard auth != nil else {
            if clientID != nil || clientSecret != nil || tenant != nil || login || authorizationEndpoint != nil
                || tokenEndpoint != nil || deviceAuthorizationEndpoint != nil || revocationEndpoint != nil
                || !scopes.isEmpty
            {
                throw ValidationError(
                    "--client-id, --client-secret, --tenant, the endpoints, --scope and --login go with --auth")
            }
            return
        }
        if clientID == nil {
            throw ValidationError("--auth needs --client-id: the client registered with the provider")
        }
    }

    /// The options as config keys of a pair.
    var configLines: String {
        guard let auth else { return "" }
        var lines = "auth = \(TOMLText.string(auth))\n"
        if let clientID { lines += "client_id = \(TOMLText.string(clientID))\n" }
        if let clientSecret { lines += "client_secret = \(TOMLText.string(clientSecret))\n" }
        if let tenant { lines += "tenant = \(TOMLText.string(tenant))\n" }
        if let authorizationEndpoint { lines += "authorization_endpoint = \(TOMLText.string(authorizationEndpoint))\n" }
        if let tokenEndpoint { lines += "token_endpoint = \(TOMLText.string(tokenEndpoint))\n" }
        if let url = deviceAuthorizationEndpoint {
            lines += "device_authorization_endpoint = \(TOMLText.string(url))\n"
        }
        if let url = revocationEndpoint { lines += "revocation_endpoint = \(TOMLText.string(url))\n" }
        if !scopes.isEmpty { lines += "scopes = [\(scopes.map(TOMLText.string).joined(separator: ", "))]\n" }
        return lines
    }
}
