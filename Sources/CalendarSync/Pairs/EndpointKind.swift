import Foundation

/// What one side of a pair names, decided in this one place for the config reader, `init`,
/// and the pair the library runs: a folder of `.ics` files (a vdir), one `.ics` file holding a
/// whole calendar, a CalDAV server, or a read-only feed.
public enum EndpointKind: Equatable, Sendable {
    /// A folder of `.ics` files (a vdir).
    case folder
    /// One `.ics` file holding a whole calendar.
    case singleFile
    /// A CalDAV server's calendar.
    case server
    /// A read-only iCalendar feed.
    case feed

    /// The local side `url` names: a server for `http(s)://`; one file for a path ending in
    /// `.ics` that is a file or does not exist yet (a folder so named stays a vdir); else a folder.
    public static func local(_ url: URL) -> EndpointKind {
        if ["http", "https"].contains(url.scheme?.lowercased() ?? "") { return .server }
        guard url.pathExtension.lowercased() == "ics" else { return .folder }
        var isFolder: ObjCBool = false
        return !FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) || !isFolder.boolValue
            ? .singleFile : .folder
    }

    /// The remote side `url` names (a `webcal(s)://` URL already translated to http(s), with
    /// `webcal` true): a feed for a webcal URL, one the config says is (`subscription`), or,
    /// unless it says otherwise, an http(s) path ending in `.ics`; a folder for `file://`; else
    /// a server.
    public static func remote(_ url: URL, webcal: Bool = false, subscription: Bool? = nil) -> EndpointKind {
        if webcal || subscription ?? SubscriptionURL.looksLikeFeed(url) { return .feed }
        return url.scheme?.lowercased() == "file" ? .folder : .server
    }
}
