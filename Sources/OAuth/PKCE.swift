import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636) with S256: a secret the token request shows, whose
/// hash the authorization request sent, so that a code caught on the way back (by another
/// program on the machine, say) is worth nothing.
struct PKCE: Sendable {
    /// 43 characters of the unreserved set (32 random bytes, base64url): the secret.
    let verifier: String
    /// BASE64URL(SHA-256(verifier)), sent with the authorization request.
    var challenge: String { Self.base64URL(Data(SHA256.hash(data: Data(verifier.utf8)))) }

    init() { verifier = Self.randomToken() }

    /// A given verifier (RFC 7636's example, in tests).
    init(verifier: String) { self.verifier = verifier }

    /// 32 random bytes as base64url: a PKCE verifier, a `state`.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL(Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// Base64url without padding (RFC 4648 §5), as PKCE and JWTs write it.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
