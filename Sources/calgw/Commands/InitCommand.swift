import ArgumentParser
import CalendarSync
import Foundation

/// `calgw init`: adds a pair to the config file.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Add a pair (a vdir and a CalDAV collection) to the config file.",
        discussion: """
            The pair is appended to the config file as a [pair.NAME] table; what is already in \
            the file, comments included, is left as it is. The vdir folder is created if missing.

            --remote is a CalDAV collection's http:// or https:// URL, or file:///path of a \
            second vdir (a folder mirrored both ways; created if missing), or an iCalendar \
            feed: webcal:// or webcals://, an http(s) URL ending in .ics, or any http(s) URL \
            with --subscription. A feed is read-only: the pair only pulls it.

            --local is a folder (the vdir), a path ending in .ics (one file holding the whole \
            calendar), or the http(s):// URL of a second CalDAV calendar: a pair of two servers, \
            for a migration or to keep them in step, signed in to with --local-username and \
            --local-password-command or --local-password-env.

            With --all-collections, --remote is a calendar home (or principal, or server) URL \
            and --local a folder of vdirs: the calendars found there are listed (the folder \
            each will sync into, its href, display name and component types) and the pair \
            syncs them all (collections = "all"), each in its own subfolder.

            Examples:
              calgw init --local ~/calendars/personal \\
                  --remote https://dav.example.com/dav/calendars/alice/personal/ \\
                  --username alice --password-command "pass show dav/alice"
              calgw init --pair work --local ~/calendars/work --remote https://... --password-env WORK_DAV_PASSWORD
              calgw init --pair holidays --local ~/calendars/holidays --remote webcal://example.org/holidays.ics
              calgw init --pair move --local http://localhost:5232/alice/calendar/ \\
                  --local-username alice --local-password-env OLD_PASSWORD \\
                  --remote https://mail.example.com/dav/calendars/user/alice/Default/ \\
                  --username alice --password-command "pass show dav/new"
              calgw init --all-collections --pair alice --local ~/calendars \\
                  --remote https://dav.example.com/dav/calendars/alice/ \\
                  --username alice --password-command "pass show dav/alice"
            """
    )

    @Option(
        help: ArgumentHelp(
            "The vdir: a folder of .ics files, one event or task per file (or one .ics file, or a second server's calendar URL).",
            valueName: "dir"),
        completion: .directory)
    var local: String

    @OptionGroup var localCredentials: LocalCredentialOptions

    @Option(
        help: ArgumentHelp(
            "The CalDAV collection's URL (http:// or https://), or file:///path of a second vdir.", valueName: "url"))
    var remote: String

    @OptionGroup var credentials: CredentialOptions

    @OptionGroup var oauth: OAuthOptions

    @OptionGroup var tls: TLSOptions

    @Option(help: "The pair's name (default: the vdir folder's name).")
    var pair: String?

    @Option(
        name: [.customShort("c"), .long],
        help: ArgumentHelp(
            "The config file (default: $CALGW_CONFIG, else ~/.config/calgw/config.toml).", valueName: "path"),
        completion: .file(extensions: ["toml"]))
    var config: String?

    @Flag(
        help:
            "Sync every calendar behind --remote (a calendar home), each in a subfolder of --local; lists what is found."
    )
    var allCollections = false

    @Flag(help: "--remote is an iCalendar feed (read-only, pulled only), though its URL does not end in .ics.")
    var subscription = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        try credentials.validate()
        try oauth.validate()
        if oauth.auth != nil && credentials.signIn != SignIn() {
            throw ValidationError("--auth and a password or token command exclude each other")
        }
        let supported =
            "--remote must be an http:// or https:// URL (a CalDAV collection or a feed), webcal:// (a feed) or file:///path (a second vdir)"
        guard let url = URL(string: remote), let scheme = url.scheme?.lowercased() else {
            throw ValidationError(supported)
        }
        switch scheme {
        case "webcal", "webcals":
            guard url.host != nil else { throw ValidationError(supported) }
            if allCollections {
                throw ValidationError("--all-collections needs a calendar home; a webcal:// feed is one calendar")
            }
        case "http", "https":
            guard url.host != nil else { throw ValidationError(supported) }
            if allCollections && subscription {
                throw ValidationError("--all-collections and --subscription exclude each other")
            }
        case "file":
            guard !url.path.isEmpty, url.host == nil || url.host == "" || url.host == "localhost" else {
                throw ValidationError(supported)
            }
            if allCollections {
                throw ValidationError(
                    "--all-collections needs an http:// or https:// URL (a calendar home); a file:// remote is one vdir"
                )
            }
        default:
            throw ValidationError(supported)
        }
        if subscription && scheme == "file" { throw ValidationError("--subscription needs an http(s):// URL") }
        if localIsServer {
            guard URL(string: local)?.host != nil else { throw ValidationError("--local \(local) is not a valid URL") }
            if allCollections {
                throw ValidationError(
                    "--all-collections needs a folder as --local: a pair of two servers syncs one calendar")
            }
            if remoteIsFeed || scheme == "file" {
                throw ValidationError("a server as --local needs a CalDAV calendar as --remote")
            }
        }
        try localCredentials.check(localIsServer: localIsServer)
    }

    /// What --local names (``EndpointKind/local(_:)``), as the config will read it.
    var localKind: EndpointKind {
        let lowered = local.lowercased()
        let url =
            lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
            ? URL(string: local)
            : URL(fileURLWithPath: ConfigPaths().expandTilde(local))
        return url.map(EndpointKind.local) ?? .folder
    }

    /// True when --local is a second server's calendar.
    var localIsServer: Bool { localKind == .server }

    /// True when --remote names a feed (written so, the config reads it as a subscription).
    var remoteIsFeed: Bool {
        guard let (url, webcal) = SubscriptionURL.remote(remote) else { return false }
        return EndpointKind.remote(url, webcal: webcal, subscription: subscription ? true : nil) == .feed
    }

    func run() async throws {
        // A pair that signs in with OAuth has no token before calgw login: its calendars are
        // found by its first sync.
        var (found, account): ([CalendarServer.FoundCalendar], ServerAccount?) = ([], nil)
        if allCollections && oauth.auth == nil, let url = URL(string: remote) {
            (found, account) = try await CalendarServer(settings: tls.server(signIn: credentials.signIn))
                .foundCalendars(
                    at: url, folder: URL(fileURLWithPath: ConfigPaths().expandTilde(local), isDirectory: true))
        }
        let paths = ConfigPaths()
        let file = paths.configFile(explicit: config)
        let localURL =
            localIsServer
            ? URL(string: local)!
            : URL(fileURLWithPath: paths.expandTilde(local), isDirectory: true).standardizedFileURL
        let name = pair ?? Pair.defaultName(for: localURL)
        let existing =
            FileManager.default.fileExists(atPath: file.path) ? try String(contentsOf: file, encoding: .utf8) : ""
        do {
            let current = try ConfigFile.parse(existing, url: file, paths: paths)
            if current.pairs.contains(where: { $0.name == name }) {
                throw CLIError(
                    "\(file.path) already has a pair named \"\(name)\"",
                    hint: "choose another with --pair NAME, or edit the file", status: .usage)
            }
        } catch let error as ConfigError {
            throw CLIError("cannot add to \(file.path): \(error.message)", hint: "fix the file first", status: .usage)
        }
        let table = configTable(name: name, localURL: localURL)
        let separator =
            existing.isEmpty ? "" : (existing.hasSuffix("\n\n") ? "" : existing.hasSuffix("\n") ? "\n" : "\n\n")
        let updated = existing + separator + table
        // What is written must read back: validate the whole file before replacing it, and its
        // new pair may not share files with another.
        let written = try ConfigFile.parse(updated, url: file, paths: paths)
        if let added = written.pairs.first(where: { $0.name == name }), let other = written.overlapping(added) {
            throw ConfigFile.overlapError(added, other)
        }
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try FileReplacement.write(Array(updated.utf8), to: file)
        // What the server said of the account, kept for the pair's `event` commands.
        if let account,
            let added = try? ConfigFile.parse(updated, url: file, paths: paths).pairs.first(where: { $0.name == name })?
                .pair
        {
            OwnAddresses.cache(account, of: added)
        }
        switch localKind {
        case .server, .feed:
            // Nothing to make on this machine: the first sync copies one server's calendar to the other.
            break
        case .singleFile:
            // A single .ics file: made by the first sync, in a folder made now.
            try FileManager.default.createDirectory(
                at: localURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        case .folder:
            try FileManager.default.createDirectory(at: localURL, withIntermediateDirectories: true)
        }
        if let url = URL(string: remote), url.scheme?.lowercased() == "file" {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: url.path, isDirectory: true), withIntermediateDirectories: true)
        }
        try report(name: name, file: file, localURL: localURL, found: found, account: account)
        if oauth.login,
            let added = try ConfigFile.parse(updated, url: file, paths: paths).pairs.first(where: {
                $0.name == name
            }), let signIn = added.login.oauth
        {
            try await LoginCommand.signIn(added, signIn, device: false, noBrowser: false, output: output)
            if !output.json && !output.quiet { Terminal.out("next: calgw sync --pair \(name)") }
        }
    }

    /// The pair's `[pair.NAME]` table, as appended to the config file.
    func configTable(name: String, localURL: URL) -> String {
        var table = "[pair.\(TOMLText.key(name))]\n"
        table += "local = \(TOMLText.string(localIsServer ? local : localURL.path))\n"
        table += localCredentials.configLines
        table += "remote = \(TOMLText.string(remote))\n"
        table += credentials.configLines
        table += oauth.configLines
        table += tls.configLines
        if allCollections { table += "collections = \"all\"\n" }
        if subscription { table += "subscription = true\n" }
        table += "conflict = \"merge\"\n"
        return table
    }

    /// Says what was added (the calendars found, the account, what to run next), or prints
    /// it as one JSON document.
    func report(
        name: String, file: URL, localURL: URL, found: [CalendarServer.FoundCalendar], account: ServerAccount?
    ) throws {
        if output.json {
            if allCollections {
                try Terminal.printJSON(
                    InitOutput(pair: name, config: file.path, local: localURL.path, remote: remote, collections: found))
            } else {
                try Terminal.printJSON([
                    "pair": name, "config": file.path, "local": localIsServer ? local : localURL.path, "remote": remote,
                ])
            }
        } else if !output.quiet {
            if allCollections {
                Terminal.out(
                    found.isEmpty
                        ? "no calendars found yet; folders made in \(localURL.path) become calendars"
                        : "\(found.count) calendar\(found.count == 1 ? "" : "s") found:")
                for calendar in found {
                    let components =
                        calendar.components.isEmpty ? "" : " (\(calendar.components.joined(separator: ",")))"
                    Terminal.out("  \(calendar.name)/ → \(calendar.href)  \(calendar.displayName ?? "-")\(components)")
                }
            }
            if let account { Terminal.out(account.summary) }
            Terminal.out("added pair \"\(name)\" to \(file.path)")
            if remoteIsFeed {
                Terminal.out("a read-only subscription: calgw pull (or sync) fetches it; local edits stay local")
            }
            // With --login, what comes next is said once the sign-in worked.
            if oauth.auth != nil && !oauth.login {
                Terminal.out("next: calgw login --pair \(name), then calgw sync --pair \(name)")
            } else if !oauth.login {
                Terminal.out("next: calgw \(remoteIsFeed ? "pull" : "sync") --pair \(name)")
            }
        }
    }

    struct InitOutput: Encodable {
        var pair, config, local, remote: String
        var collections: [CalendarServer.FoundCalendar]
    }
}
