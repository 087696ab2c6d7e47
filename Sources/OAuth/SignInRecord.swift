import Foundation

extension OAuthLogin.SignedIn {
    /// `login --json`'s document (CLI.md): who signed in, where the token is kept, what was
    /// not granted, and whether the sign-in renews itself.
    public func record(pair: String) -> Record {
        Record(
            pair: pair, account: account, tokenFile: tokenFile.path, missingScopes: missingScopes,
            renewable: renewable, expiresIn: expiresIn)
    }

    /// `login --json`'s document.
    public struct Record: Encodable {
        var pair: String
        var account: String?
        var tokenFile: String
        var missingScopes: [String]
        /// Whether a refresh token came: false means the sign-in ends with its access token.
        var renewable: Bool
        var expiresIn: Double?
        enum CodingKeys: String, CodingKey {
            case pair, account, tokenFile = "token_file", missingScopes = "missing_scopes"
            case renewable = "refresh_token", expiresIn = "expires_in"
        }

        /// Every key, null where there is no value.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(pair, forKey: .pair)
            try c.encode(account, forKey: .account)
            try c.encode(tokenFile, forKey: .tokenFile)
            try c.encode(missingScopes, forKey: .missingScopes)
            try c.encode(renewable, forKey: .renewable)
            try c.encode(expiresIn, forKey: .expiresIn)
        }
    }
}
