import Foundation
import HTTP

/// The provider's endpoints as calgw talks to them (RFC 6749 §4.1.3 and §6, RFC 8628 §3.1 and
/// §3.4, RFC 7009, OpenID Connect's userinfo): form-encoded requests, JSON answers, each
/// error turned into a ``SignInError`` that says what to do. No token is ever put into a message.
struct TokenEndpoint: Sendable {
    let provider: OAuthProvider
    let http: HTTPClient

    /// A token endpoint's answer (RFC 6749 §5.1).
    struct Granted: Decodable, Sendable {
        var accessToken: String
        var expiresIn: Double?
        var refreshToken: String?
        var scope: String?
        var idToken: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", expiresIn = "expires_in", refreshToken = "refresh_token", scope
            case idToken = "id_token"
        }
    }

    /// An endpoint's error (RFC 6749 §5.2), with RFC 8628's `interval` for `slow_down`.
    struct Refusal: Decodable, Sendable {
        var error: String
        var errorDescription: String?
        enum CodingKeys: String, CodingKey { case error, errorDescription = "error_description" }

        /// The error code and the provider's words, for a message.
        var text: String { errorDescription.map { "\(error): \($0)" } ?? error }
    }

    /// What asking an endpoint came to: granted, or refused with the provider's error.
    enum Answer: Sendable {
        case granted(Granted)
        case refused(Refusal)
    }

    /// Trades an authorization code for tokens.
    func exchange(code: String, redirectURI: String, verifier: String) async throws -> Granted {
        try granted(
            await ask(
                provider.tokenEndpoint,
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                    ("code_verifier", verifier),
                ]))
    }

    /// A new access token for `refreshToken`.
    func refresh(_ refreshToken: String) async throws -> Answer {
        try await ask(provider.tokenEndpoint, [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    /// One poll of the device grant.
    func poll(deviceCode: String) async throws -> Answer {
        try await ask(
            provider.tokenEndpoint,
            [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode)])
    }

    /// The granted tokens, or the refusal as a ``SignInError``.
    func granted(_ answer: Answer) throws -> Granted {
        switch answer {
        case .granted(let granted): return granted
        case .refused(let refusal):
            throw SignInError(
                .refused, "the provider refused the sign-in (\(refusal.text))",
                recovery: RefusalAdvice.recovery(
                    error: refusal.error, description: refusal.errorDescription, provider: provider))
        }
    }

    /// Posts `fields` (and the client's credentials) to `endpoint`.
    func ask(_ endpoint: URL, _ fields: [(String, String)]) async throws -> Answer {
        let response: HTTPResponse
        do {
            response = try await post(endpoint, fields)
        } catch let error as HTTPError where error.status == 401 {
            // RFC 6749 §5.2: a client the provider does not authenticate is refused with 401
            // `invalid_client`; the pair has no user name or password to check, but a client.
            let said = error.serverReason.flatMap { try? JSONDecoder().decode(Refusal.self, from: Data($0.utf8)) }
            return .refused(said ?? Refusal(error: "invalid_client", errorDescription: error.serverReason))
        }
        if response.isSuccess {
            do { return .granted(try JSONDecoder().decode(Granted.self, from: response.body)) } catch {
                throw SignInError(
                    .malformedAnswer, "\(endpoint.redactedString) answered \(response.status) without a token",
                    cause: error)
            }
        }
        if let refusal = try? JSONDecoder().decode(Refusal.self, from: response.body) { return .refused(refusal) }
        throw unexpected(response, from: endpoint)
    }

    /// An answer that is no OAuth answer at all (a web page, a 404): the endpoint's config key
    /// is named, and a page's markup is not printed.
    func unexpected(_ response: HTTPResponse, from endpoint: URL) -> SignInError {
        let key =
            endpoint == provider.tokenEndpoint
            ? "token_endpoint"
            : endpoint == provider.deviceAuthorizationEndpoint ? "device_authorization_endpoint" : "the endpoint"
        let text = Self.firstLine(of: response.text)
        let words = text.hasPrefix("<") || text.isEmpty ? "" : " \(text)"
        return SignInError(
            .malformedAnswer,
            "\(endpoint.redactedString) answered \(response.status)\(words), not as OAuth 2.0 answers",
            recovery: response.status == 404 || response.status == 405
                ? "check the pair's \(key): no OAuth endpoint answers there"
                : "the provider failed (HTTP \(response.status)); try again later, or check the pair's \(key)")
    }

    /// A form POST with the client's id (and secret, where it has one), as RFC 6749 §2.3.1
    /// allows in the body.
    func post(_ endpoint: URL, _ fields: [(String, String)]) async throws -> HTTPResponse {
        var all = fields + [("client_id", provider.clientID)]
        if let secret = provider.clientSecret { all.append(("client_secret", secret)) }
        let body = all.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        return try await http.send(
            HTTPRequest(
                method: "POST", url: endpoint,
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                body: Data(body.utf8)))
    }

    /// The account `accessToken` belongs to, from the userinfo endpoint; nil where there is
    /// none or it does not say.
    func account(accessToken: String) async -> String? {
        guard let endpoint = provider.userinfoEndpoint,
            let response = try? await http.send(
                HTTPRequest(
                    method: "GET", url: endpoint,
                    headers: [("Authorization", "Bearer \(accessToken)"), ("Accept", "application/json")])),
            response.isSuccess,
            let claims = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else { return nil }
        return IDToken.account(in: claims)
    }

    /// Asks the provider to revoke `token` (RFC 7009); true when it said it did.
    func revoke(_ token: String, hint: String) async throws -> Bool {
        guard let endpoint = provider.revocationEndpoint else { return false }
        let response = try await post(endpoint, [("token", token), ("token_type_hint", hint)])
        return response.isSuccess
    }

    /// `application/x-www-form-urlencoded` (every byte but the unreserved ones escaped).
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    static func firstLine(of text: String) -> String {
        String(
            text.split(whereSeparator: \.isNewline).first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                .prefix(200) ?? "")
    }
}
