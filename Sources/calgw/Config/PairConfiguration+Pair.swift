import CalDAV
import CalendarSync
import Foundation

extension PairConfiguration {
    /// The pair as the library runs it. `remote` is a CalDAV URL (`http(s)://`), or another
    /// vdir for `file:///path` (vdir-to-vdir sync, used by tests and for mirroring a folder);
    /// the server's client is made, and its secret read, only when a run needs it. A `local`
    /// ending in `.ics` that is not a folder is a single-file calendar.
    var pair: Pair {
        get throws {
            let localSide = localIsSingleFile ? .singleFile(URL(fileURLWithPath: local.path)) : try endpoint(local, login: localLogin, side: "local")
            var pair = Pair(name: name, local: localSide, remote: try endpoint(remote, login: login, side: "remote"), conflict: conflict,
                            window: window, collections: collections, defaultCollection: defaultCollection, journal: journal)
            pair.schedules = scheduling
            return pair
        }
    }

    /// A side's endpoint: a vdir for a `file:` URL, else a CalDAV calendar signed in to with `login`.
    func endpoint(_ url: URL, login: Login, side: String) throws -> Pair.Endpoint {
        switch url.scheme?.lowercased() {
        case "file":
            return .vdir(URL(fileURLWithPath: url.path, isDirectory: true))
        case "http", "https":
            let configuration = self
            if side == "remote" && subscription {
                return .subscription(url, connect: { try configuration.subscriptionStorage() })
            }
            return .caldav(url, connect: { try configuration.client(login: login) })
        default:
            throw CLIError("pair \(name): \(side) \(url.absoluteString) is neither http(s):// nor file://", status: .usage)
        }
    }

    /// A CalDAV client with `login` (by default the remote's) and the pair's TLS settings.
    func client(login: Login? = nil) throws -> CalDAVClient {
        let login = login ?? self.login
        var http = HTTPClientConfiguration(authentication: try Credentials.authentication(
            username: login.username, password: login.password, tokenCommand: login.tokenCommand))
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

    /// The storage of a subscription: the feed fetched with the pair's login, TLS settings and caps.
    func subscriptionStorage() throws -> SubscriptionStorage {
        var options = SubscriptionStorage.Options()
        if let cap = maxResponseBytes { options.maxBodyBytes = cap }
        if let cap = maxLineLength { options.maxLineLength = cap }
        return SubscriptionStorage(url: remote, client: try client().http, options: options)
    }
}
