import Failures
import Foundation
import HTTP

/// Signs a pair in (`calgw login`) and out (`calgw logout`): the authorization code grant with
/// PKCE through a browser and a loopback redirect (RFC 8252), the same with the redirected
/// address pasted back (a machine reached over SSH), or the device grant (RFC 8628). The
/// token goes to the pair's token file, which every later run renews by itself.
public struct OAuthLogin: Sendable {
    public let signIn: OAuthSignIn
    let endpoint: TokenEndpoint
    /// The pair's CA bundle, for the clients made later (a bounded one for `logout`).
    let caFile: String?
    var file: TokenFile { TokenFile(url: signIn.tokenFile) }
    var provider: OAuthProvider { signIn.provider }

    /// How long a browser sign-in waits for the person.
    public static let browserTimeout: TimeInterval = 300

    /// - Parameter caFile: a CA bundle to trust instead of the system's (the pair's `ca_file`).
    public init(_ signIn: OAuthSignIn, caFile: String? = nil) throws {
        self.signIn = signIn
        self.caFile = caFile
        var configuration = HTTPClientConfiguration()
        configuration.caFile = caFile
        // A provider that hangs fails the sign-in in a minute, not in five per request.
        configuration.connectTimeout = 10
        configuration.requestTimeout = 30
        endpoint = TokenEndpoint(provider: signIn.provider, http: try HTTPClient(configuration: configuration))
    }

    /// A finished sign-in.
    public struct SignedIn: Sendable {
        /// The account, as the id token or the userinfo endpoint named it.
        public var account: String?
        /// Scopes asked for that the provider did not grant (a person may untick some).
        public var missingScopes: [String]
        public var tokenFile: URL
        /// Whether the provider gave a refresh token: without one, the sign-in ends when the
        /// access token expires, and every run after that asks for a new `login`.
        public var renewable: Bool
        /// Seconds the access token lives, as the provider said.
        public var expiresIn: TimeInterval?
        /// The scopes asked for (`offline_access` added where the provider's metadata offers it).
        public var askedScopes: [String]
    }

    /// What to change so that the provider gives a refresh token: nil where it gave one, or
    /// where nothing calgw knows of would help.
    public func refreshTokenAdvice(_ signedIn: SignedIn) -> String? {
        guard !signedIn.renewable else { return nil }
        switch provider.preset {
        case .google:
            return "Google gives one only at consent: remove calgw's access at "
                + "https://myaccount.google.com/permissions, then run calgw login again"
        case .microsoft:
            return "keep offline_access in scopes, and check that the app registration may ask for it"
        case .oauth:
            if !signedIn.askedScopes.contains("offline_access") {
                return provider.scopes.isEmpty
                    ? "add scopes = [\"openid\", \"offline_access\", …] (the scopes your calendar needs) to the pair"
                    : "add \"offline_access\" to the pair's scopes"
            }
            return "the provider's admin must allow refresh tokens (offline access) for client \(provider.clientID)"
        }
    }

    /// What the person is shown for the device grant.
    public struct DeviceCode: Sendable {
        public var userCode: String
        public var verificationURI: String
        /// The address with the code in it, where the provider gives one.
        public var verificationURIComplete: String?
        public var expiresIn: TimeInterval
    }

    /// The browser sign-in: `open` is given the provider's address once the listener waits,
    /// and what to tell the person (``browserPrompt(for:listener:)``). The browser's tab is
    /// answered once the code is exchanged, with the outcome.
    public func withBrowser(open: @Sendable (_ url: URL, _ prompt: String) -> Void) async throws -> SignedIn {
        try file.checkFolder()
        let listener = try LoopbackListener(host: provider.loopbackHost)
        let pkce = PKCE(), state = PKCE.randomToken()
        let scopes = await scopesToAsk()
        let url = authorizationURL(redirectURI: listener.redirectURI, pkce: pkce, state: state, scopes: scopes)
        open(url, browserPrompt(for: url, listener: listener))
        let (answer, tab) = try await listener.answer(state: state, timeout: Self.browserTimeout)
        do {
            let signedIn = try await finish(
                answer, state: state, redirectURI: listener.redirectURI, pkce: pkce, scopes: scopes)
            tab.close(signedIn: true, text: "Signed in to calgw. You can close this tab.")
            return signedIn
        } catch {
            tab.close(
                signedIn: false,
                text: "The sign-in failed: \(CauseChain.text(of: error)). See the terminal; you can close this tab.")
            throw error
        }
    }

    /// The sign-in for a machine without a browser: `show` is given the address to open
    /// elsewhere, `read` returns the address the browser ended on, pasted back.
    /// An address that is not this sign-in's answer (another sign-in's, a mistyped one) is
    /// said with `complain`, and asked for again, up to three times.
    public func withPastedAnswer(
        show: (URL) -> Void, read: () -> String?, complain: (String) -> Void = { _ in }
    ) async throws -> SignedIn {
        try file.checkFolder()
        // The port is only part of the address: the browser's machine has no listener on it.
        let port = (try? LoopbackListener(host: provider.loopbackHost).port) ?? 8765
        let redirectURI = "http://\(provider.loopbackHost):\(port)/"
        let pkce = PKCE(), state = PKCE.randomToken()
        let scopes = await scopesToAsk()
        show(authorizationURL(redirectURI: redirectURI, pkce: pkce, state: state, scopes: scopes))
        for attempt in 1...3 {
            guard let pasted = read()?.trimmingCharacters(in: .whitespacesAndNewlines), !pasted.isEmpty else {
                throw SignInError(.wrongAnswer, "no address was pasted", recovery: "run calgw login --no-browser again")
            }
            let answer = LoopbackListener.query(of: pasted)
            if attempt < 3, answer["state"] != state || (answer["code"] == nil && answer["error"] == nil) {
                complain(
                    answer["state"] == nil
                        ? "That is not the address the browser ended on (it has no state=…); paste that one:"
                        : "That address belongs to another sign-in (its state differs); paste the address the "
                            + "browser ended on after opening the address above:")
                continue
            }
            return try await finish(answer, state: state, redirectURI: redirectURI, pkce: pkce, scopes: scopes)
        }
        throw SignInError(.wrongAnswer, "no usable address was pasted", recovery: "run calgw login --no-browser again")
    }

    /// The device grant: `show` is given the code and the address; the provider is polled
    /// at its interval (five seconds more after each `slow_down`) until the person approves,
    /// declines, or the code expires.
    public func withDevice(show: (DeviceCode) -> Void) async throws -> SignedIn {
        if let refusal = provider.deviceGrantRefusal { throw SignInError(.deviceGrantUnavailable, refusal) }
        try file.checkFolder()
        let scopes = await scopesToAsk()
        let device = try await deviceAuthorization(scopes: scopes)
        show(device.code)
        var interval = device.interval
        let end = Date().addingTimeInterval(device.code.expiresIn)
        while Date() < end {
            try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            switch try await endpoint.poll(deviceCode: device.deviceCode) {
            case .granted(let granted):
                return try await keep(granted, asked: scopes)
            case .refused(let refusal):
                switch refusal.error {
                case "authorization_pending": continue
                case "slow_down": interval += 5
                case "access_denied", "authorization_declined":
                    throw SignInError(.refused, "the sign-in was declined (\(refusal.text))")
                case "expired_token": throw Self.codeExpired
                default: _ = try endpoint.granted(.refused(refusal))
                }
            }
        }
        throw Self.codeExpired
    }

    /// How a sign-out went.
    public enum SignedOut: Sendable {
        /// There was no token.
        case notSignedIn
        /// The provider revoked the token, and the file is deleted.
        case revoked
        /// The file is deleted; the provider offers no revocation, or answered that it did not
        /// revoke (the token may have been invalid already).
        case deleted(revocationOffered: Bool)
    }

    /// How long `logout` waits for the provider to revoke, at most: a provider that is down
    /// or hangs must not hold the command for minutes.
    public static let revocationTimeout: TimeInterval = 20

    /// Revokes the token where the provider can, then deletes the token file. A file others
    /// can read is revoked too: a token that may have leaked is the one that most needs it.
    /// - Throws: ``SignInError`` (`.malformedAnswer`, exit 1) when the provider could not be
    ///   asked or did not answer in time: the token is then kept, so that `calgw logout`
    ///   can revoke it later.
    public func logout() async throws -> SignedOut {
        guard let stored = try file.readForRevocation() else { return .notSignedIn }
        guard let revocation = provider.revocationEndpoint else {
            _ = try file.remove()
            return .deleted(revocationOffered: false)
        }
        var configuration = HTTPClientConfiguration()
        configuration.caFile = caFile
        configuration.connectTimeout = Self.revocationTimeout / 2
        configuration.requestTimeout = Self.revocationTimeout
        configuration.maxRetries = 0
        let bounded = TokenEndpoint(provider: provider, http: try HTTPClient(configuration: configuration))
        let revoked: Bool
        do {
            // Revoking the refresh token ends the access tokens made from it.
            let token = stored.refreshToken ?? stored.accessToken
            revoked = try await bounded.revoke(
                token, hint: stored.refreshToken != nil ? "refresh_token" : "access_token")
        } catch {
            throw SignInError(
                .malformedAnswer,
                "the provider did not revoke the token: \(revocation.redactedString) could not be asked "
                    + "(\(CauseChain.text(of: error))); the token is kept",
                recovery: "run calgw logout again later; to sign out on this machine now, delete \(file.url.path) "
                    + "and revoke calgw's access on the provider's account page",
                cause: error)
        }
        _ = try file.remove()
        return revoked ? .revoked : .deleted(revocationOffered: true)
    }

    static let codeExpired = SignInError(
        .timedOut, "the code expired before the sign-in was approved", recovery: "run calgw login --device again")

    /// The scopes to ask for: the pair's, with `offline_access` added where the provider
    /// offers it in its metadata and the pair does not name it (a provider that gives refresh
    /// tokens only for that scope, as Authelia and Authentik do, otherwise signs in for an
    /// hour). A pair that names no scopes asks for the OpenID scopes the provider lists
    /// (`openid`, `email`, `profile`) with it, where it would otherwise ask for none and get the
    /// provider's defaults without a refresh token. Google is asked for offline access its own
    /// way (`access_type`), Microsoft's preset asks for it already.
    func scopesToAsk() async -> [String] {
        guard provider.preset == .oauth, !provider.scopes.contains("offline_access"),
            let metadata = await ProviderMetadata.find(near: provider.authorizationEndpoint, http: endpoint.http),
            metadata.scopesSupported.contains("offline_access")
        else { return provider.scopes }
        let named =
            provider.scopes.isEmpty
            ? ["openid", "email", "profile"].filter(metadata.scopesSupported.contains) : provider.scopes
        return named + ["offline_access"]
    }

    /// The provider's authorization address (RFC 6749 §4.1.1 with RFC 7636's challenge).
    func authorizationURL(redirectURI: String, pkce: PKCE, state: String, scopes: [String]? = nil) -> URL {
        let scopes = scopes ?? provider.scopes
        var components = URLComponents(url: provider.authorizationEndpoint, resolvingAgainstBaseURL: false)!
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: provider.clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "state", value: state), URLQueryItem(name: "code_challenge", value: pkce.challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        // No scopes: the provider's defaults (an empty `scope` is refused by some).
        if !scopes.isEmpty {
            items.append(URLQueryItem(name: "scope", value: scopes.joined(separator: " ")))
        }
        if provider.preset == .google {
            // A refresh token comes only with consent: without `prompt=consent`, a second
            // sign-in of the same client gets none, and lasts an hour.
            items.append(URLQueryItem(name: "access_type", value: "offline"))
            items.append(URLQueryItem(name: "prompt", value: "consent"))
        }
        components.queryItems = items
        // URLComponents leaves '+' alone, which a form decoder reads as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// Checks the redirect's answer and trades its code for tokens.
    private func finish(
        _ answer: [String: String], state: String, redirectURI: String, pkce: PKCE, scopes: [String]
    ) async throws -> SignedIn {
        guard answer["state"] == state else {
            throw SignInError(
                .wrongAnswer, "the answer does not belong to this sign-in (its state differs)",
                recovery: "run calgw login again and use the address it prints")
        }
        if let error = answer["error"] {
            let words = answer["error_description"].map { "\(error): \($0)" } ?? error
            throw SignInError(
                .refused, "the sign-in was refused (\(words))",
                recovery: RefusalAdvice.recovery(
                    error: error, description: answer["error_description"], provider: provider,
                    redirectURI: redirectURI))
        }
        guard let code = answer["code"] else { throw SignInError(.wrongAnswer, "the answer carries no code") }
        return try await keep(
            try await endpoint.exchange(code: code, redirectURI: redirectURI, verifier: pkce.verifier), asked: scopes)
    }

    /// Writes the granted tokens to the pair's token file.
    private func keep(_ granted: TokenEndpoint.Granted, asked scopes: [String]) async throws -> SignedIn {
        var account = granted.idToken.flatMap(IDToken.account(in:))
        if account == nil { account = await endpoint.account(accessToken: granted.accessToken) }
        // A sign-in before this one (a second login) leaves its refresh token live at the
        // provider: revoked once the new token is safe on disk, as far as the provider answers.
        let earlier = try? file.readForRevocation()
        try file.write(
            StoredToken(
                accessToken: granted.accessToken,
                expiresAt: granted.expiresIn.map { Date().timeIntervalSince1970 + $0 },
                refreshToken: granted.refreshToken, scope: granted.scope, account: account,
                clientID: provider.clientID, tokenEndpoint: provider.tokenEndpoint.absoluteString))
        if let earlier, let old = earlier.refreshToken, old != granted.refreshToken,
            earlier.clientID == provider.clientID, earlier.tokenEndpoint == provider.tokenEndpoint.absoluteString
        {
            _ = try? await endpoint.revoke(old, hint: "refresh_token")
        }
        let grantedScopes = Set((granted.scope ?? "").split(separator: " ").map(String.init))
        let missing =
            grantedScopes.isEmpty ? [] : scopes.filter { !grantedScopes.contains($0) && !Self.unechoed.contains($0) }
        return SignedIn(
            account: account, missingScopes: missing, tokenFile: signIn.tokenFile,
            renewable: granted.refreshToken != nil, expiresIn: granted.expiresIn, askedScopes: scopes)
    }

    /// Scopes providers grant without listing them in the answer.
    static let unechoed: Set<String> = ["openid", "email", "profile", "offline_access"]

    /// Asks for a device code (RFC 8628 §3.1).
    private func deviceAuthorization(scopes: [String]) async throws -> (
        code: DeviceCode, deviceCode: String, interval: TimeInterval
    ) {
        guard let url = provider.deviceAuthorizationEndpoint else {
            throw SignInError(.deviceGrantUnavailable, provider.deviceGrantRefusal ?? "no device grant")
        }
        let response = try await endpoint.post(url, scopes.isEmpty ? [] : [("scope", scopes.joined(separator: " "))])
        guard response.isSuccess,
            let fields = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let deviceCode = fields["device_code"] as? String, let userCode = fields["user_code"] as? String,
            let uri = (fields["verification_uri"] ?? fields["verification_url"]) as? String
        else {
            // A refusal is the provider's word on the sign-in (exit 5); anything else, a
            // failure of the provider or of the address (exit 1).
            guard let refusal = try? JSONDecoder().decode(TokenEndpoint.Refusal.self, from: response.body) else {
                throw endpoint.unexpected(response, from: url)
            }
            throw SignInError(
                .refused, "the provider gave no device code (\(refusal.text))",
                recovery: RefusalAdvice.recovery(
                    error: refusal.error, description: refusal.errorDescription, provider: provider))
        }
        let code = DeviceCode(
            userCode: userCode, verificationURI: uri,
            verificationURIComplete: fields["verification_uri_complete"] as? String,
            expiresIn: (fields["expires_in"] as? Double) ?? 600)
        return (code, deviceCode, max(1, (fields["interval"] as? Double) ?? 5))
    }
}
