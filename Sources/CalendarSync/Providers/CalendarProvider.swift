import Foundation

/// A kind of remote calgw reaches over a network: CalDAV, Microsoft Graph, and whichever comes
/// next. A provider makes the storage of one of its calendars and the directory of an account;
/// pairs, account runs, the config reader and `discover` know providers only through this
/// protocol and the registry (``CalendarProviders``), so a next provider is a folder of its
/// own and one registration, with no switch to extend anywhere else.
///
/// A remote's provider is the one its settings name (``ServerSettings/api``), else the one
/// that claims its URL (Graph claims `graph.microsoft.com`), else CalDAV.
protocol CalendarProvider: Sendable {
    /// Its name as the config's `api` key and `discover --api` give it: `caldav`, `graph`.
    var name: String { get }

    /// Whether the provider alone speaks at `url`, whatever `api` says (a host only it serves).
    func claims(_ url: URL) -> Bool

    /// Whether the server marks on the version it stores what it did with each of a meeting's
    /// messages (RFC 6638 `SCHEDULE-STATUS`), so that a person's action can be told what was
    /// sent; false where answers and invitations are sent by the requests that make them.
    var marksSchedulingStatus: Bool { get }

    /// The storage of the calendar at `url`; a client is made, and its secret read, now.
    /// - Throws: ``ConnectionError`` when the settings cannot make a client.
    func storage(at url: URL, settings: ServerSettings, use: ProviderUse) throws -> any CalendarStorage

    /// The account behind `url`, as the provider keeps its calendars.
    /// - Throws: ``ConnectionError`` when the settings cannot make a client.
    func directory(at url: URL, settings: ServerSettings, use: ProviderUse) throws -> any CalendarDirectory

    /// The calendars behind `url` as `discover` lists them (`url` may be an account, or one
    /// calendar), asked with `server`'s client.
    func discover(_ url: URL, server: CalendarServer) async throws -> [DiscoveredCalendar]

    /// Lines `discover` prints after its table: what the provider tells of the account and
    /// the server once `first`, the first calendar found, is known.
    func notes(at url: URL, server: CalendarServer, first: DiscoveredCalendar) async -> [String]

    /// Whether the account may only read the calendar at `url`; nil when the provider cannot
    /// tell, or the question fails.
    func isReadOnly(_ url: URL, settings: ServerSettings, use: ProviderUse) async -> Bool?
}

/// Who uses a provider's storage or directory, and within what: the pair's name for messages,
/// its window for providers that list only a span of time.
struct ProviderUse: Sendable {
    /// What the client belongs to in messages (`pair work`).
    var owner: String
    /// The pair's `window` (`-90d..+365d`), for a provider that lists by time; nil: its own.
    var window: String?
}

extension CalendarProvider {
    func claims(_ url: URL) -> Bool { false }
    func notes(at url: URL, server: CalendarServer, first: DiscoveredCalendar) async -> [String] { [] }
    func isReadOnly(_ url: URL, settings: ServerSettings, use: ProviderUse) async -> Bool? { nil }
}
