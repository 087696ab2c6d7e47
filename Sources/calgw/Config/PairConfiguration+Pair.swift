import CalDAV
import CalendarSync
import Foundation

extension PairConfiguration {
    /// The pair as the library runs it. `remote` is a CalDAV URL (`http(s)://`), or another
    /// vdir for `file:///path` (vdir-to-vdir sync, used by tests and for mirroring a folder);
    /// the server's client is made, and its secret read, only when a run needs it.
    var pair: Pair {
        get throws {
            let remote: Pair.Endpoint
            switch self.remote.scheme?.lowercased() {
            case "file":
                remote = .vdir(URL(fileURLWithPath: self.remote.path, isDirectory: true))
            case "http", "https":
                let configuration = self
                remote = .caldav(self.remote, connect: { try configuration.client() })
            default:
                throw CLIError("pair \(name): remote \(self.remote.absoluteString) is neither http(s):// nor file://", status: .usage)
            }
            return Pair(name: name, local: local, remote: remote, conflict: conflict, window: window,
                        collections: collections, defaultCollection: defaultCollection, journal: journal)
        }
    }

    /// A CalDAV client with the pair's credentials and TLS settings.
    func client() throws -> CalDAVClient {
        var http = HTTPClientConfiguration(authentication: try Credentials.authentication(
            username: username, password: password, tokenCommand: tokenCommand))
        http.caFile = caFile
        if let cap = maxResponseBytes { http.maxResponseBytes = cap }
        if let pin = verifyFingerprint {
            guard pin.hasPrefix("sha256//") else {
                throw CLIError("pair \(name): verify_fingerprint must be sha256//BASE64, the SHA-256 of the server's public key",
                               hint: "curl's --pinnedpubkey takes the same form", status: .usage)
            }
            http.pinnedPublicKey = pin
        }
        do { return try CalDAVClient(configuration: .init(http: http)) } catch {
            throw CLIError("cannot set up HTTP for pair \(name): \(error)")
        }
    }
}
