import CalendarSync
import Foundation

/// One `[pair.NAME]` table of the config file (CLI.md, "Configuration"): a vdir, a CalDAV URL,
/// how to authenticate, and how to sync. ``pair`` turns it into the library's ``Pair``.
struct PairConfiguration: Equatable, Sendable {

    var name: String
    /// The vdir (or, for an account pair, the folder of vdirs) as a file URL, `~` expanded;
    /// or, in a server-to-server pair, the first server's calendar (`http(s)://`).
    var local: URL
    var remote: URL
    /// How to sign in to `remote`.
    var login = SignIn()
    /// How to sign in to `local` when it is a server (`local_username`, `local_password_*`,
    /// `local_token_command`).
    var localLogin = SignIn()
    var conflict: ConflictStrategy = .merge
    /// `-90d..+365d`: only events overlapping this window relative to today are synced.
    var window: String?
    /// `item_types = ["VTODO"]`: the kinds of item the pair syncs; nil: all.
    var itemTypes: ComponentKinds?
    var collections: Pair.Collections = .single
    /// An account pair: the calendar `event` commands work on without `--collection`.
    var defaultCollection: String?
    /// The journal file; by default `$XDG_STATE_HOME/calgw/<pair>.sqlite`.
    var journal: URL
    /// A CA bundle to trust instead of the system's.
    var caFile: String?
    /// A SHA-256 fingerprint the server's certificate must match.
    var verifyFingerprint: String?
    /// The largest response body accepted from the server (`max_response_size`); nil: the
    /// HTTP client's default. A server answering more is cut off with a clear error.
    var maxResponseBytes: Int?
    /// Whether `remote` is a read-only iCalendar feed (`webcal://`, `subscription = true`, or
    /// an http(s) path ending in `.ics`); the pair then only pulls.
    var subscription = false
    /// The provider that speaks at `remote` (`api`, or the one that claims the remote's URL),
    /// by its name in the registry (``ProviderNames``); nil: CalDAV.
    var api: String?
    /// `server = "NAME"`, or `api = "google"` (Google's CalDAV behind a proxy): the remote's server
    /// product (``ServerSettings/product``); nil: known by its URL and answers.
    var product: ServerProduct?
    /// `scheduling = "never"`: the person's actions send no scheduling message either (see
    /// ``Pair/schedules``); `"auto"` (the default) lets a scheduling server send them.
    var scheduling = true
    /// `addresses` and `mail_command` (``Pair/addresses``, ``Pair/mailCommand``).
    var addresses: [String] = [], mailCommand: [String]?
    /// A subscription's longest accepted line (`max_line_length`); nil: the storage's default.
    var maxLineLength: Int?

    /// What the local side is (``EndpointKind/local(_:)``).
    var localKind: EndpointKind { .local(local) }

    /// Whether the local side is a server (a server-to-server pair).
    var localIsServer: Bool { localKind == .server }

    /// Whether the local side is one `.ics` file holding many events.
    var localIsSingleFile: Bool { localKind == .singleFile }
}
