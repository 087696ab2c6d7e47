import CalendarSync
import Foundation

extension PairConfiguration {
    /// The pair as the library runs it. `remote` is a CalDAV URL (`http(s)://`), or another
    /// vdir for `file:///path` (vdir-to-vdir sync, used by tests and for mirroring a folder);
    /// a server's side carries its ``ServerSettings``, from which the library makes the client,
    /// and reads the secret, only when a run needs it. A `local` ending in `.ics` that is not a
    /// folder is a single-file calendar.
    var pair: Pair {
        get throws {
            let localSide =
                localIsSingleFile
                ? .singleFile(URL(fileURLWithPath: local.path)) : try endpoint(local, login: localLogin, side: "local")
            var pair = Pair(
                name: name, local: localSide, remote: try endpoint(remote, login: login, side: "remote"),
                conflict: conflict,
                window: window, collections: collections, defaultCollection: defaultCollection, journal: journal)
            pair.schedules = scheduling
            pair.itemTypes = itemTypes
            (pair.addresses, pair.mailCommand) = (addresses, mailCommand)
            return pair
        }
    }

    /// A side's endpoint: a vdir for a `file:` URL, else a server signed in to with `login`.
    func endpoint(_ url: URL, login: SignIn, side: String) throws -> Pair.Endpoint {
        switch url.scheme?.lowercased() {
        case "file":
            return .vdir(URL(fileURLWithPath: url.path, isDirectory: true))
        case "http", "https":
            if side == "remote" && subscription {
                return .subscription(url, server: server(login: login))
            }
            var settings = server(login: login)
            if side == "remote" { (settings.product, settings.api) = (product, api) }
            return .server(url, server: settings)
        default:
            throw CLIError(
                "pair \(name): \(side) \(url.absoluteString) is neither http(s):// nor file://", status: .usage)
        }
    }

    /// The settings of a server of the pair signed in to with `login`: the pair's TLS
    /// settings and caps.
    func server(login: SignIn) -> ServerSettings {
        ServerSettings(
            signIn: login, caFile: caFile, pinnedPublicKey: verifyFingerprint, maxResponseBytes: maxResponseBytes,
            maxLineLength: maxLineLength)
    }
}
