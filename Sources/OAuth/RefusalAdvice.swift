import Foundation

/// What to do about a provider's refusal of a sign-in, from its error code and words: the
/// codes a newcomer meets, Microsoft's `AADSTS` numbers among them (their meaning as Microsoft
/// documents it in "Microsoft Entra authentication and authorization error codes").
enum RefusalAdvice {
    /// The recovery for `error` with the provider's `description`; nil where none is known.
    /// `redirectURI` is the address the sign-in asked to be sent back to, where there was one.
    static func recovery(
        error: String, description: String?, provider: OAuthProvider, redirectURI: String? = nil
    ) -> String? {
        let words = description ?? ""
        if let code = words.firstMatch(of: /AADSTS(\d+)/).map({ String($0.1) }),
            let advice = microsoft(code, redirectHost: redirectURI.flatMap { URL(string: $0)?.host } ?? "localhost")
        {
            return advice
        }
        switch error {
        case "invalid_client", "unauthorized_client":
            return provider.clientSecret == nil
                ? "check the pair's client_id: the provider does not know it, or does not let it sign in this way"
                : "check the pair's client_id and client_secret: the provider does not take them"
        case "invalid_scope":
            return "check the pair's scopes: the provider does not offer one of them"
        case "invalid_grant":
            return "the sign-in's code expired or was used already: run calgw login again, and finish it within "
                + "a minute or two"
        case "access_denied", "authorization_declined":
            return "run calgw login again and allow what is asked"
        default:
            return nil
        }
    }

    /// Microsoft Entra's codes a newcomer meets, and what to set or whom to ask; `redirectHost`
    /// is the host of the redirect the sign-in named.
    static func microsoft(_ code: String, redirectHost: String = "localhost") -> String? {
        switch code {
        case "50194":
            return "the app registration is single-tenant (the portal's default), so tenant \"common\" or "
                + "\"organizations\" is refused: set tenant = \"<your tenant id>\" (the Directory (tenant) ID on the "
                + "app's Overview page), or make the app multitenant"
        case "700016":
            return "Microsoft knows no app with this client_id in this tenant: check client_id (the Application "
                + "(client) ID on the app's Overview page) and tenant"
        case "65001":
            return "the app has not been granted the permissions calgw asks for: sign in again and consent, "
                + "or ask your administrator to grant Calendars.ReadWrite to the app"
        case "90094", "90095":
            return "your organization lets only an administrator consent to this app: ask your Microsoft 365 "
                + "administrator to grant admin consent to it (Enterprise applications, Permissions)"
        case "50011":
            return "the redirect address is not registered: add http://\(redirectHost) as a redirect URI of the app "
                + "(platform \"Mobile and desktop applications\")"
        case "7000218":
            return "the app is not a public client: turn on \"Allow public client flows\" in the app's "
                + "Authentication settings"
        default:
            return nil
        }
    }
}
