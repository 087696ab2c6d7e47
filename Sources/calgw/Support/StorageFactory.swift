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
            // INTEGRATION: replace with `CalDAVStorage(...)` (Sources/CalendarSync/Storage/CalDAVStorage.swift)
            // built from pair.remote, pair.username, pair.password / pair.tokenCommand, pair.caFile and
            // pair.verifyFingerprint, once that type is on main.
            throw CLIError("CalDAV remotes are not available in this build (\(pair.remote.absoluteString))",
                           hint: "use a file:///path remote, or a build with the CalDAV storage", status: .failure)
        default:
            throw CLIError("pair \(pair.name): remote \(pair.remote.absoluteString) is neither http(s):// nor file://", status: .usage)
        }
    }
}
