import Foundation

/// The claims of an OpenID Connect id token that name the account. The token came straight
/// from the token endpoint over the connection calgw opened, so its signature is not checked
/// (OpenID Connect Core §3.1.3.7 allows it): it only says whom to name in "signed in as".
enum IDToken {
    /// The account an id token names (`email`, else `preferred_username`, else `upn`).
    static func account(in idToken: String) -> String? {
        let parts = idToken.split(separator: ".")
        guard parts.count >= 2 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return account(in: claims)
    }

    /// The account claims name.
    static func account(in claims: [String: Any]) -> String? {
        for key in ["email", "preferred_username", "upn"] {
            if let value = claims[key] as? String, !value.isEmpty { return value }
        }
        return nil
    }
}
