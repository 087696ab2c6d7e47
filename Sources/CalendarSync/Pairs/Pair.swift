import Foundation

/// A pair as the library runs it: the two sides, how conflicts are resolved, which items and
/// (for an account) which calendars take part, and where its journal lives.
///
/// The config file's `[pair.NAME]` table becomes one of these; every command that works on a
/// pair (sync, pull, push, status, watch, the `event` commands) runs it through ``PairRun``,
/// so they agree on journals, storages, policy and locking.
public struct Pair: Sendable {
    /// The pair's name in the config file, used in messages.
    public var name: String
    /// The side calgw treats as the user's copy: a vdir (for an account pair, the folder
    /// holding one vdir per calendar), or a second server in a server-to-server pair.
    public var local: Endpoint
    /// The other side.
    public var remote: Endpoint
    /// How conflicts are resolved unless a run says otherwise.
    public var conflict: ConflictStrategy
    /// `-90d..+365d`: only items overlapping this window relative to today are synced.
    public var window: String?
    /// `item_types = ["VTODO"]`: only items of these kinds are taken up; the others stay where
    /// they are on both sides, untouched. Nil: every kind.
    public var itemTypes: ComponentKinds?
    /// One calendar, or an account's calendars.
    public var collections: Collections
    /// For an account pair: the calendar the `event` commands work on without `--collection`.
    public var defaultCollection: String?
    /// The file caching what the server said of the account (``ServerAccount``), beside
    /// the journal.
    public var accountCache: URL { journal.deletingPathExtension().appendingPathExtension("account.json") }

    /// The journal file. An account pair keeps one journal per calendar in `<journal>.d/`.
    public var journal: URL
    /// Whether the person's own actions (`calgw event add --attendee`, `reply`, an edit or a
    /// deletion of a meeting) may make a scheduling server send invitations, updates,
    /// cancellations and replies. False (`scheduling = "never"`): every write is a copy that
    /// sends nothing, as every sync's writes are anyway.
    public var schedules = true
    /// The person's calendar addresses the config names (`addresses`), besides the server's.
    public var addresses: [String] = []
    /// The sendmail-compatible command that mails scheduling messages where the server sends
    /// none (`mail_command`: the message on stdin, recipients from its headers); nil: none.
    public var mailCommand: [String]?

    /// A pair of one calendar unless `collections` says otherwise, resolving conflicts by merging
    /// unless `conflict` says otherwise.
    public init(
        name: String, local: Endpoint, remote: Endpoint, conflict: ConflictStrategy = .merge, window: String? = nil,
        collections: Collections = .single, defaultCollection: String? = nil, journal: URL
    ) {
        self.name = name
        self.local = local
        self.remote = remote
        self.conflict = conflict
        self.window = window
        self.collections = collections
        self.defaultCollection = defaultCollection
        self.journal = journal
    }

    /// Where a side's items live.
    public enum Endpoint: Sendable {
        /// A folder of `.ics` files (vdir to vdir: mirroring a folder, tests).
        case vdir(URL)
        /// A calendar on a server (or, for an account pair, any URL its provider's discovery
        /// starts from), reached with `server`'s settings through the provider they name
        /// (``ServerSettings/api``) or the one that claims the URL, else CalDAV
        /// (``CalendarProviders``). The library makes the client only when a run needs the
        /// server, so commands that stay local never run a password command.
        case server(URL, server: ServerSettings)
        /// One `.ics` file holding many calendar objects, split into items by UID and
        /// rewritten whole, atomically, once per batch (``SingleFileStorage``).
        case singleFile(URL)
        /// A read-only iCalendar feed (`webcal://`, or an http(s) `.ics` file), as a remote
        /// side: the pair only pulls. Fetched with `server`'s settings when a run needs it.
        case subscription(URL, server: ServerSettings)

        /// The endpoint's URL.
        public var url: URL {
            switch self {
            case .vdir(let url), .server(let url, _), .singleFile(let url), .subscription(let url, _): url
            }
        }

        /// The provider of a server's calendar; nil for a vdir, a single file or a feed.
        var provider: (any CalendarProvider)? {
            guard case .server(let url, let server) = self else { return nil }
            return CalendarProviders.provider(api: server.api, at: url)
        }

        /// True for a server that marks what it did with a meeting's messages on the version it
        /// stores (RFC 6638 `SCHEDULE-STATUS`), as its provider says.
        public var marksSchedulingStatus: Bool { provider?.marksSchedulingStatus ?? false }

        /// True for a side calgw never writes (a subscription).
        public var isReadOnly: Bool {
            if case .subscription = self { return true }
            return false
        }
    }

    /// Which calendars a pair syncs.
    public enum Collections: Equatable, Sendable {
        /// One calendar: `remote` is the calendar, `local` its vdir.
        case single
        /// Every calendar of the account, one vdir per subfolder of `local`.
        case all
        /// These calendars only, by folder name.
        case named([String])
    }

    /// Whether the pair is an account (its calendars in subfolders of `local`).
    public var isAccount: Bool { collections != .single }

    /// The local vdir's folder; nil when the local side is a server.
    public var localFolder: URL? {
        if case .vdir(let url) = local { return url }
        return nil
    }

    /// The local vdir's folder, for what only a vdir can do (`what`: an account, the
    /// `event` commands).
    /// - Throws: `SyncError` with code `.unsupported` when the local side is a server.
    func localFolder(for what: String) throws -> URL {
        guard let folder = localFolder else {
            let side =
                if case .singleFile(let url) = local { "the single file \(url.path)" } else {
                    "the server \(local.url.absoluteString)"
                }
            throw SyncError(
                .unsupported,
                "\(what) needs a folder of .ics files as its local side; pair \(name)'s local side is \(side)",
                recovery: "use a pair whose local side is a vdir")
        }
        return folder
    }

    /// What the remote's server does as far as the config and its URL tell, before any answer
    /// (``ServerFacts``); nil for a remote that is no server (a vdir, a single file, a feed).
    var remoteFacts: ServerFacts? {
        guard case .server(let url, let server) = remote else { return nil }
        return server.facts(at: url)
    }

    /// How this pair uses a provider: its name in messages, its window.
    var providerUse: ProviderUse { ProviderUse(owner: "pair \(name)", window: window) }

    /// The storage of `endpoint` (one of this pair's sides) for one calendar; a server's
    /// client is made, and its secret read, now.
    /// - Throws: ``ConnectionError`` when the server's settings cannot make a client.
    func storage(_ endpoint: Endpoint) throws -> any CalendarStorage {
        switch endpoint {
        case .vdir(let url): VDirStorage(url: url)
        case .server(let url, let server):
            try CalendarProviders.provider(api: server.api, at: url).storage(
                at: url, settings: server, use: providerUse)
        case .singleFile(let url): SingleFileStorage(url: url)
        case .subscription(let url, let server): try server.subscriptionStorage(url, owner: "pair \(name)")
        }
    }

    /// The account behind the pair's remote, as its provider keeps its calendars; nil when
    /// the remote is no account (a vdir, a single file, a feed). The client is made, and its
    /// secret read, now.
    /// - Throws: ``ConnectionError`` when the server's settings cannot make a client.
    func directory() throws -> (any CalendarDirectory)? {
        guard case .server(let url, let server) = remote else { return nil }
        return try CalendarProviders.provider(api: server.api, at: url).directory(
            at: url, settings: server, use: providerUse)
    }
}
