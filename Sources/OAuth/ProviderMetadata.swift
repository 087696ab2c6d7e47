import Foundation
import HTTP

/// What a provider says of itself in its metadata document (RFC 8414's
/// `/.well-known/oauth-authorization-server`, or OpenID Connect discovery's
/// `/.well-known/openid-configuration`): here, the scopes it offers, so that a sign-in asks for
/// `offline_access` where the provider gives refresh tokens only for it (Authelia, Authentik).
struct ProviderMetadata: Sendable {
    /// `scopes_supported`; empty where the document does not say.
    var scopesSupported: [String]

    /// The document of the provider whose authorization endpoint is `endpoint`, looked for
    /// where the two standards put it for each issuer the endpoint's path allows (the issuer
    /// is not in the config: `https://idp.example/o/authorize/` may be issuer
    /// `https://idp.example/o` or `https://idp.example`); nil where none answers.
    static func find(near endpoint: URL, http: HTTPClient) async -> ProviderMetadata? {
        for url in candidates(near: endpoint) {
            guard
                let response = try? await http.send(
                    HTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")])),
                response.isSuccess,
                let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            else { continue }
            return ProviderMetadata(scopesSupported: document["scopes_supported"] as? [String] ?? [])
        }
        return nil
    }

    /// Where the metadata document may be, most specific issuer first.
    static func candidates(near endpoint: URL) -> [URL] {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return [] }
        components.query = nil
        components.fragment = nil
        var segments = endpoint.path.split(separator: "/").map(String.init)
        if !segments.isEmpty { segments.removeLast() }  // the endpoint's own name (authorize, auth)
        var urls: [URL] = []
        while true {
            let issuerPath = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
            for path in [
                issuerPath + "/.well-known/openid-configuration",
                "/.well-known/oauth-authorization-server" + issuerPath,
            ] {
                components.path = path
                if let url = components.url, !urls.contains(url) { urls.append(url) }
            }
            guard !segments.isEmpty else { break }
            segments.removeLast()
        }
        return urls
    }
}
