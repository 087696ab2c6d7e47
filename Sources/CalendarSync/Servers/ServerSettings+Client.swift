import CalDAV
import Foundation
import HTTP

extension ServerSettings {
    /// The HTTP configuration these settings make, the secret read now (a token command's
    /// only when a request needs it).
    /// - Parameters:
    ///   - owner: what the settings belong to in messages (`pair work`); nil for a server named
    ///     on the command line.
    ///   - url: where the client goes, when known: the server's facts there say how its
    ///     answers read (``ServerFacts/defersWithBare403``).
    /// - Throws: ``ConnectionError``: a secret that cannot be read, a malformed pin.
    func httpConfiguration(owner: String?, for url: URL? = nil) throws -> HTTPClientConfiguration {
        var http = HTTPClientConfiguration(authentication: try SecretReader.authentication(signIn, caFile: caFile))
        http.caFile = caFile
        http.bareDAVErrorIsRateLimit = facts(at: url).defersWithBare403
        if let cap = maxResponseBytes { http.maxResponseBytes = cap }
        if let pin = pinnedPublicKey {
            guard pin.hasPrefix("sha256//") else {
                throw ConnectionError(
                    .malformedPin,
                    (owner.map { "\($0): " } ?? "")
                        + "verify_fingerprint must be sha256//BASE64, the SHA-256 of the server's public key",
                    recovery: "curl's --pinnedpubkey takes the same form")
            }
            http.pinnedPublicKey = pin
        }
        return http
    }

    /// A CalDAV client with these settings, for the server at `url` when known.
    /// - Throws: ``ConnectionError`` (see ``httpConfiguration(owner:for:)``; `.httpSetup` when
    ///   libcurl cannot be set up for an `owner`, else libcurl's own error).
    func client(owner: String?, for url: URL? = nil) throws -> CalDAVClient {
        let http = try httpConfiguration(owner: owner, for: url)
        do { return try CalDAVClient(configuration: .init(http: http)) } catch {
            guard let owner else { throw error }
            throw ConnectionError(.httpSetup, "cannot set up HTTP for \(owner): \(error)", cause: error)
        }
    }

    /// The storage of the feed at `url`: fetched with these settings' sign-in, TLS settings and caps.
    func subscriptionStorage(_ url: URL, owner: String?) throws -> SubscriptionStorage {
        var options = SubscriptionStorage.Options()
        if let cap = maxResponseBytes { options.maxBodyBytes = cap }
        if let cap = maxLineLength { options.maxLineLength = cap }
        return SubscriptionStorage(url: url, client: try client(owner: owner).http, options: options)
    }
}
