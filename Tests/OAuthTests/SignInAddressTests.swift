import Foundation
import Testing
@testable import OAuth

/// What a sign-in asks of the provider, and where it looks for the provider's metadata.
@Suite struct SignInAddressTests {
    /// Google gives a refresh token only with consent: a second sign-in of the same client
    /// must ask for it, or it gets none and lasts an hour.
    @Test func googleIsAskedForConsentAndOfflineAccess() throws {
        let login = try OAuthLogin(
            OAuthSignIn(
                provider: .google(clientID: "id", clientSecret: "secret"),
                tokenFile: URL(fileURLWithPath: "/tmp/none.json"), pair: "p"))
        let url = login.authorizationURL(redirectURI: "http://127.0.0.1:1/", pkce: PKCE(), state: "s")
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.contains(URLQueryItem(name: "prompt", value: "consent")), "\(url)")
        #expect(items.contains(URLQueryItem(name: "access_type", value: "offline")), "\(url)")
    }

    /// The issuer is not in the config: each issuer the endpoint's path allows is tried, in
    /// both standards' places, the most specific first.
    @Test func metadataIsLookedForAtEachIssuerTheEndpointAllows() {
        let urls = ProviderMetadata.candidates(near: URL(string: "https://idp.example/o/authorize/?x=1")!)
        #expect(
            urls.map(\.absoluteString) == [
                "https://idp.example/o/.well-known/openid-configuration",
                "https://idp.example/.well-known/oauth-authorization-server/o",
                "https://idp.example/.well-known/openid-configuration",
                "https://idp.example/.well-known/oauth-authorization-server",
            ])
    }

    /// Microsoft's codes a newcomer meets get what to set or whom to ask.
    @Test func entraCodesAreAdvised() {
        let provider = OAuthProvider.microsoft(clientID: "id", tenant: nil)
        let advice = { (code: String) in
            RefusalAdvice.recovery(error: "invalid_request", description: "AADSTS\(code): words", provider: provider)
                ?? ""
        }
        #expect(advice("50194").contains("tenant = \""))
        #expect(advice("700016").contains("client_id"))
        #expect(advice("65001").contains("consent"))
        #expect(advice("90094").contains("administrator") && advice("90095").contains("administrator"))
    }
}
