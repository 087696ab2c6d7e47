import CalDAV
import CalendarSync
import Foundation

/// Makes the two storages of a pair: `local` is always a vdir; `remote` is a CalDAV
/// collection for `http(s)://`, or another vdir for `file:///path` (vdir-to-vdir sync, used by
/// tests and for mirroring a folder).
enum StorageFactory {
    static func local(for pair: PairConfiguration) -> any CalendarStorage {
        VDirStorage(url: pair.local)
    }

    static func remote(for pair: PairConfiguration) throws -> any CalendarStorage {
        switch pair.remote.scheme?.lowercased() {
        case "file":
            return VDirStorage(url: URL(fileURLWithPath: pair.remote.path, isDirectory: true))
        case "http", "https":
            return CalDAVStorage(client: try client(for: pair), collection: pair.remote)
        default:
            throw CLIError("pair \(pair.name): remote \(pair.remote.absoluteString) is neither http(s):// nor file://", status: .usage)
        }
    }

    /// A CalDAV client with the pair's credentials and TLS settings.
    static func client(for pair: PairConfiguration) throws -> CalDAVClient {
        var http = HTTPClientConfiguration(authentication: try Credentials.authentication(
            username: pair.username, password: pair.password, tokenCommand: pair.tokenCommand))
        http.caFile = pair.caFile
        if let cap = pair.maxResponseBytes { http.maxResponseBytes = cap }
        if let pin = pair.verifyFingerprint {
            guard pin.hasPrefix("sha256//") else {
                throw CLIError("pair \(pair.name): verify_fingerprint must be sha256//BASE64, the SHA-256 of the server's public key",
                               hint: "curl's --pinnedpubkey takes the same form", status: .usage)
            }
            http.pinnedPublicKey = pin
        }
        do { return try CalDAVClient(configuration: .init(http: http)) } catch {
            throw CLIError("cannot set up HTTP for pair \(pair.name): \(error)")
        }
    }
}
