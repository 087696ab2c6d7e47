import CalendarSync
import Foundation
import OAuth
import TOMLKit

/// The config file: the pairs calgw knows, read from TOML (CLI.md, "Configuration").
struct ConfigFile {
    var url: URL
    var pairs: [PairConfiguration]
    /// The top-level reminder keys (`notify_command`, `missed_alarms`), for `watch`.
    var reminders = ReminderSettings()
    /// The `[busy.NAME]` projections, made by `sync` after the pairs and by `calgw busy`.
    var busy: [BusySettings] = []

    /// Reads and validates the file; every problem is a `ConfigError` naming the key.
    static func load(from url: URL, paths: ConfigPaths = ConfigPaths()) throws -> ConfigFile {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ConfigError(
                "no config file at \(url.path)",
                hint: "create a pair with: calgw init --local DIR --remote URL")
        }
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw ConfigError("cannot read \(url.path): \(error.localizedDescription)")
        }
        return try parse(text, url: url, paths: paths)
    }

    /// What may stand at the top of the file: the pairs' table, and the keys `watch` reads.
    static let topLevelKeys = ["pair", "busy", "notify_command", "missed_alarms"]

    static func parse(_ text: String, url: URL, paths: ConfigPaths = ConfigPaths()) throws -> ConfigFile {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw ConfigError("\(url.path):\(error.source.begin.line): \(error.description)")
        }
        // A misspelt table (`[pairs.x]`, `[pari.x]`) would leave its pairs out in silence.
        for key in table.keys.sorted() where !Self.topLevelKeys.contains(key) {
            throw ConfigError(
                "\(url.path): \(key) is not a key calgw knows at the top of the file",
                hint: "pairs are [pair.NAME] tables, projections [busy.NAME]; the other keys there are "
                    + Self.topLevelKeys.filter { !["pair", "busy"].contains($0) }.joined(separator: ", "))
        }
        let reminders = try ReminderSettings.read(table, file: url.path)
        let busy = try Self.busy(table, file: url.path)
        guard let pairsTable = table["pair"]?.table else {
            return ConfigFile(url: url, pairs: [], reminders: reminders, busy: busy)
        }
        let pairs = try pairsTable.keys.sorted().map { name in
            guard let t = pairsTable[name]?.table else { throw ConfigError("\(url.path): pair.\(name) is not a table") }
            return try PairReader(name: name, table: t, file: url, paths: paths).read()
        }
        return ConfigFile(url: url, pairs: pairs, reminders: reminders, busy: busy)
    }

    /// The pairs a command runs on: `--pair NAME`, every pair with `--all`, or the only one.
    /// - Throws: `ConfigError` for an unknown name, for no or several pairs without a choice,
    ///   and for a chosen pair whose local side overlaps another pair's (``overlapping(_:)``).
    /// - Parameter takesAll: the command takes `--all` (`login` and `event` commands sign in or
    ///   write one pair, and their hint must not name it).
    func select(pair: String?, all: Bool, takesAll: Bool = true) throws -> [PairConfiguration] {
        let chosen = try choose(pair: pair, all: all, takesAll: takesAll)
        for candidate in chosen {
            if let other = overlapping(candidate) { throw Self.overlapError(candidate, other) }
        }
        return chosen
    }

    private func choose(pair: String?, all: Bool, takesAll: Bool) throws -> [PairConfiguration] {
        if all { return pairs }
        if let pair {
            guard let found = pairs.first(where: { $0.name == pair }) else {
                throw ConfigError(
                    "no pair named \"\(pair)\" in \(url.path)",
                    hint: pairs.isEmpty
                        ? "create one with: calgw init" : "known pairs: \(pairs.map(\.name).joined(separator: ", "))")
            }
            return [found]
        }
        switch pairs.count {
        case 0:
            throw ConfigError("\(url.path) has no pairs", hint: "create one with: calgw init --local DIR --remote URL")
        case 1: return pairs
        default:
            throw ConfigError(
                "\(url.path) has \(pairs.count) pairs (\(pairs.map(\.name).joined(separator: ", "))); say which",
                hint: "--pair \(pairs[0].name)" + (takesAll ? ", or --all" : ""))
        }
    }
}

/// Reads one `[pair.NAME]` table.
struct PairReader {
    let name: String
    let table: TOMLTable
    let file: URL
    let paths: ConfigPaths

    static let knownKeys = Set<String>([
        "local", "remote", "username", "password_command", "password_env", "password_file",
        "token_command", "conflict", "window", "collections", "journal", "ca_file", "verify_fingerprint",
        "max_response_size", "default_collection",
        "local_username", "local_password_command", "local_password_env", "local_password_file",
        "local_token_command", "subscription", "max_line_length", "scheduling", "api", "server", "addresses",
        "mail_command", "item_types",
    ]).union(oauthKeys)

    /// The keys of an OAuth sign-in (`auth` and what it takes).
    static let oauthKeys: Set<String> = [
        "auth", "client_id", "client_secret", "tenant", "scopes", "authorization_endpoint", "token_endpoint",
        "device_authorization_endpoint", "revocation_endpoint", "userinfo_endpoint",
    ]

    func fail(_ key: String, _ problem: String, hint: String? = nil) -> ConfigError {
        ConfigError("\(file.path): pair.\(name).\(key) \(problem)", hint: hint)
    }

    func string(_ key: String) throws -> String? {
        guard let value = table[key] else { return nil }
        guard let s = value.string else { throw fail(key, "must be a string") }
        return s
    }

    /// A command: an argv array, or a string run by `sh -c`.
    func command(_ key: String) throws -> [String]? {
        guard let value = table[key] else { return nil }
        if let s = value.string { return ["/bin/sh", "-c", s] }
        guard let array = value.array else {
            throw fail(key, "must be an array of strings, like [\"pass\", \"show\", \"dav\"]")
        }
        let argv = array.compactMap { $0.string }
        guard argv.count == array.count, !argv.isEmpty else { throw fail(key, "must be a non-empty array of strings") }
        return argv
    }

    /// How to sign in to a server: `username`, one `password_*` or `token_command`, each key
    /// with `prefix` (`local_` for a server on the local side).
    func login(prefix: String) throws -> SignIn {
        let sources: [SecretSource] = try [
            command(prefix + "password_command").map { .command($0) },
            string(prefix + "password_env").map { .environment($0) },
            string(prefix + "password_file").map { .file(paths.expandTilde($0)) },
        ].compactMap { $0 }
        if sources.count > 1 {
            throw fail(
                prefix + "password_*",
                "is given more than one way; keep one of \(prefix)password_command, \(prefix)password_env, \(prefix)password_file"
            )
        }
        var login = SignIn(
            username: try string(prefix + "username"), password: sources.first,
            tokenCommand: try command(prefix + "token_command"))
        if login.password != nil && login.tokenCommand != nil {
            throw fail(prefix + "token_command", "and a password are both given; a pair uses one or the other")
        }
        if prefix.isEmpty, let oauth = try oauth() {
            if login.password != nil || login.tokenCommand != nil {
                throw fail("auth", "and a password or token_command are both given; a pair signs in one way")
            }
            login.oauth = oauth
        }
        return login
    }

    /// `auth` and its keys: the pair's OAuth sign-in (CLI.md), or nil without `auth`.
    func oauth() throws -> OAuthSignIn? {
        guard let auth = try string("auth") else {
            for key in Self.oauthKeys.sorted() where table[key] != nil {
                throw fail(
                    key, "belongs to an OAuth sign-in", hint: "add auth, one of \(OAuthProvider.Preset.names)")
            }
            return nil
        }
        guard let preset = OAuthProvider.Preset(rawValue: auth) else {
            throw fail("auth", "is \"\(auth)\"", hint: "one of: \(OAuthProvider.Preset.names)")
        }
        guard let clientID = try string("client_id"), !clientID.isEmpty else {
            throw fail(
                "client_id", "is missing: auth = \"\(auth)\" signs in as a client registered with the provider",
                hint: "docs/guide.md, \"Signing in\", shows how to register one")
        }
        let scopes = try stringList("scopes")
        let secret = try string("client_secret")
        if table["tenant"] != nil && preset != .microsoft {
            throw fail("tenant", "applies to auth = \"microsoft\" only")
        }
        var provider: OAuthProvider
        switch preset {
        case .google:
            guard secret != nil else {
                throw fail(
                    "client_secret", "is missing: Google's desktop clients give theirs to the token endpoint",
                    hint: "copy it from the client's page in Google Cloud's console (it protects nothing)")
            }
            provider = .google(clientID: clientID, clientSecret: secret, scopes: scopes)
        case .microsoft:
            provider = .microsoft(clientID: clientID, tenant: try string("tenant"), scopes: scopes)
            provider.clientSecret = secret
        case .oauth:
            guard let authorization = try endpoint("authorization_endpoint"), let token = try endpoint("token_endpoint")
            else {
                throw fail(
                    table["authorization_endpoint"] == nil ? "authorization_endpoint" : "token_endpoint",
                    "is missing: auth = \"oauth\" needs the provider's authorization and token endpoints")
            }
            provider = OAuthProvider(
                preset: .oauth, clientID: clientID, clientSecret: secret, authorizationEndpoint: authorization,
                tokenEndpoint: token, scopes: scopes ?? [])
        }
        if let url = try endpoint("authorization_endpoint") { provider.authorizationEndpoint = url }
        if let url = try endpoint("token_endpoint") { provider.tokenEndpoint = url }
        if let url = try endpoint("device_authorization_endpoint") { provider.deviceAuthorizationEndpoint = url }
        if let url = try endpoint("revocation_endpoint") { provider.revocationEndpoint = url }
        if let url = try endpoint("userinfo_endpoint") { provider.userinfoEndpoint = url }
        return OAuthSignIn(provider: provider, tokenFile: paths.tokenFile(pair: name), pair: name)
    }

    /// An endpoint: https, or http on this machine's loopback (a test server).
    func endpoint(_ key: String) throws -> URL? {
        guard let text = try string(key) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            scheme == "https" || scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        else {
            throw fail(key, "must be an https:// URL (http:// only on this machine's loopback)")
        }
        return url
    }

    /// A list of strings (`scopes = ["openid", "calendar"]`), or nil.
    func stringList(_ key: String) throws -> [String]? {
        guard let value = table[key] else { return nil }
        guard let array = value.array, case let items = array.compactMap({ $0.string }), items.count == array.count
        else { throw fail(key, "must be a list of strings") }
        return items
    }

    /// `api`: the provider that speaks at the remote, by its registered name (`caldav`,
    /// `graph`; the default is the one that claims the remote's URL, else CalDAV), or `google`
    /// for Google's CalDAV behind another host; and `server`, the CalDAV server's product when
    /// its answers do not show it (``ServerFacts``).
    func readAPI(into pair: inout PairConfiguration) throws {
        let claimed = ProviderNames.claiming(pair.remote)
        let names = ProviderNames.all + ServerFacts.namedByAPI
        switch try string("api") {
        case nil: pair.api = claimed
        case let api? where claimed.map({ $0 != api }) ?? false:
            throw fail("api", "is \"\(api)\", but \(pair.remote.host ?? "its host") speaks only \(claimed ?? "")")
        case let api? where ServerFacts.namedByAPI.contains(api): pair.product = ServerFacts.named(api)?.product
        case let api? where ProviderNames.all.contains(api): pair.api = api == "caldav" ? nil : api
        case let other?: throw fail("api", "is \"\(other)\"", hint: "one of: \(names.joined(separator: ", "))")
        }
        if let name = try string("server") {
            guard let facts = ServerFacts.named(name), pair.product.map({ $0 == facts.product }) ?? true else {
                throw fail(
                    "server", "is \"\(name)\"",
                    hint: "one of \(ServerFacts.names.joined(separator: ", ")) that api does not contradict")
            }
            pair.product = facts.product
        }
        if let api = pair.api, pair.subscription { throw fail("api", "is \(api), which a subscription cannot be") }
        if pair.product != nil && (pair.subscription || pair.api != nil) {
            throw fail(
                "server",
                "names a CalDAV server, which a \(pair.api.map { "remote of \($0)" } ?? "subscription") is not")
        }
        if let api = pair.api { pair.product = ServerFacts.named(api)?.product }
    }

    /// `subscription` (default: true for `webcal(s)://` and for a path ending in `.ics`) and
    /// `max_line_length`.
    func readSubscription(into pair: inout PairConfiguration, webcal: Bool) throws {
        let scheme = pair.remote.scheme?.lowercased() ?? ""
        if let value = table["subscription"] {
            guard let flag = value.bool else { throw fail("subscription", "must be true or false") }
            if !flag && webcal {
                throw fail("subscription", "is false, but a webcal:// remote is always a subscription")
            }
            pair.subscription = EndpointKind.remote(pair.remote, webcal: webcal, subscription: flag) == .feed
        } else {
            pair.subscription = EndpointKind.remote(pair.remote, webcal: webcal) == .feed
        }
        if pair.subscription && scheme != "http" && scheme != "https" {
            throw fail("remote", "must be an http(s):// or webcal:// URL for a subscription")
        }
        if let value = table["max_line_length"] {
            guard let bytes = value.int, bytes > 0 else {
                throw fail("max_line_length", "must be a positive number of bytes")
            }
            guard pair.subscription else { throw fail("max_line_length", "applies to a subscription only") }
            pair.maxLineLength = bytes
        }
    }

    func read() throws -> PairConfiguration {
        guard ConfigText.isWord(name, alsoAllowing: "_.-") else {
            throw ConfigError("\(file.path): pair name \"\(name)\" may use only letters, digits, '_', '-' and '.'")
        }
        for key in table.keys where !Self.knownKeys.contains(key) {
            throw fail(
                key, "is not a setting calgw knows",
                hint: "settings: \(Self.knownKeys.sorted().joined(separator: ", "))")
        }
        let (localURL, remote, subscription) = try endpoints()
        var pair = PairConfiguration(
            name: name, local: localURL, remote: remote, login: try login(prefix: ""),
            localLogin: try login(prefix: "local_"),
            journal: try string("journal").map { URL(fileURLWithPath: paths.expandTilde($0)) }
                ?? paths.defaultJournal(pair: name),
            caFile: try string("ca_file").map(paths.expandTilde), verifyFingerprint: try string("verify_fingerprint"))
        try readSubscription(into: &pair, webcal: subscription)
        try readAPI(into: &pair)
        try readBehaviour(into: &pair)
        try readCollections(into: &pair)
        try checkCombinations(of: pair)
        return pair
    }

    /// `local` (a folder, or a second server's URL) and `remote` (and whether it was written as
    /// `webcal://`).
    private func endpoints() throws -> (local: URL, remote: URL, webcal: Bool) {
        guard let local = try string("local"), !local.isEmpty else {
            throw fail("local", "is missing (the vdir folder)")
        }
        guard let given = try string("remote"), let (remote, subscription) = SubscriptionURL.remote(given),
            let scheme = remote.scheme?.lowercased(),
            (scheme == "http" || scheme == "https") && remote.host != nil || scheme == "file" && !remote.path.isEmpty
        else {
            throw fail(
                "remote", "must be an http:// or https:// URL (or webcal:// of a feed, or file:///path of a vdir)")
        }
        if local.lowercased().hasPrefix("http://") || local.lowercased().hasPrefix("https://") {
            guard let url = URL(string: local), url.host != nil else {
                throw fail("local", "is not a valid http(s):// URL")
            }
            return (url, remote, subscription)
        }
        return (URL(fileURLWithPath: paths.expandTilde(local), isDirectory: true), remote, subscription)
    }

    /// `conflict`, `scheduling`, `addresses`, `mail_command`, `window` and `max_response_size`.
    private func readBehaviour(into pair: inout PairConfiguration) throws {
        if let conflict = try string("conflict") {
            guard let strategy = ConflictStrategy(rawValue: conflict) else {
                throw fail(
                    "conflict", "is \"\(conflict)\"",
                    hint: "one of: \(ConflictStrategy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            pair.conflict = strategy
        }
        if let value = table["scheduling"] {
            // "never" as the contract writes it; true and false read as "auto" and "never".
            switch value.string ?? value.bool.map({ $0 ? "auto" : "never" }) {
            case "never": pair.scheduling = false
            case "auto": pair.scheduling = true
            default:
                throw fail(
                    "scheduling", "must be \"never\" or \"auto\"",
                    hint: "scheduling = \"never\" sends every write as a copy")
            }
        }
        pair.addresses = try stringList("addresses") ?? []
        pair.mailCommand = try command("mail_command")
        if let names = try stringList("item_types") {
            guard let kinds = ComponentKinds.named(names), !kinds.isEmpty else {
                throw fail("item_types", "is \(names)")
            }
            pair.itemTypes = kinds
        }
        if let window = try string("window") {
            guard ConfigText.isWindow(window) else {
                throw fail("window", "is \"\(window)\"", hint: "write it as -90d..+365d (days before and after today)")
            }
            pair.window = window
        }
        if let value = table["max_response_size"] {
            guard let bytes = value.int, bytes > 0 else {
                throw fail("max_response_size", "must be a positive number of bytes")
            }
            pair.maxResponseBytes = bytes
        }
    }

    /// `collections` and `default_collection`.
    private func readCollections(into pair: inout PairConfiguration) throws {
        if let value = table["collections"] {
            if value.string == "all" {
                pair.collections = .all
            } else if let array = value.array, case let names = array.compactMap({ $0.string }),
                names.count == array.count, !names.isEmpty
            {
                pair.collections = .named(names)
            } else {
                throw fail("collections", "must be \"all\" or a list of collection names")
            }
        }
        if let name = try string("default_collection") {
            guard pair.collections != .single else {
                throw fail(
                    "default_collection", "applies to a pair with collections only",
                    hint: "add collections = \"all\", or remove it")
            }
            if case .named(let names) = pair.collections, !names.contains(name) {
                throw fail(
                    "default_collection", "is \"\(name)\", which is not in collections",
                    hint: "one of: \(names.joined(separator: ", "))")
            }
            pair.defaultCollection = name
        }
    }

    /// Settings that cannot go together: `local_*` without a server as local, collections or a
    /// subscription with a local that is not a folder.
    private func checkCombinations(of pair: PairConfiguration) throws {
        if !pair.localIsServer, let key = table.keys.sorted().first(where: { $0.hasPrefix("local_") }) {
            throw fail(key, "applies only when local is a server (http:// or https://)")
        }
        if pair.localIsSingleFile && pair.collections != .single {
            throw fail("collections", "needs a folder as local: a single .ics file holds one calendar")
        }
        if pair.subscription && (pair.localIsServer || pair.localIsSingleFile || pair.collections != .single) {
            throw fail(
                pair.collections != .single ? "collections" : "local",
                "does not apply to a subscription: a feed is pulled into one folder of .ics files")
        }
        if pair.localIsServer && pair.collections != .single {
            throw fail("collections", "needs a folder as local: a pair of two servers syncs one calendar with another")
        }
    }
}
