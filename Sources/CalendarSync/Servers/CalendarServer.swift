import CalDAV
import Foundation

/// A server named on the command line rather than by a pair (`calgw discover`, `calgw init`):
/// what it lists behind a URL, what it says of the account, what a feed holds.
///
/// Made from ``ServerSettings`` as a pair's server is, so both sign in alike:
///
/// ```swift
/// let server = try CalendarServer(settings: ServerSettings(signIn: SignIn(username: "alice",
///                                                                         password: .environment("DAV_PASSWORD"))))
/// for calendar in try await server.discover(url) { print(calendar.href) }
/// ```
public struct CalendarServer: Sendable {
    let client: CalDAVClient
    let settings: ServerSettings

    /// A server reached with `settings`; the password is read now.
    /// - Throws: ``ConnectionError`` when the secret cannot be read or HTTP cannot be set up.
    public init(settings: ServerSettings) throws {
        client = try settings.client(owner: nil)
        self.settings = settings
    }

    /// What the server at `url` is and does (``ServerFacts``), as the settings name it or its
    /// answers so far show it: ask after a request to it.
    public func facts(at url: URL) -> ServerFacts {
        settings.facts(at: url, identity: client.traits.identity)
    }

    /// The calendars behind `url`, as the provider `api` names (else the one that claims the
    /// URL, else CalDAV) finds them. On CalDAV, `url` may be a server root, a principal, a
    /// calendar home or one calendar: discovery follows `/.well-known/caldav`,
    /// `current-user-principal` and `calendar-home-set` (RFC 6764).
    /// - Throws: the server's error (an ``ExplainedError``; of kind `.authentication` when it
    ///   refuses the credentials).
    public func discover(_ url: URL, api: String? = nil) async throws -> [DiscoveredCalendar] {
        try await CalendarProviders.provider(api: api ?? settings.api, at: url).discover(url, server: self)
    }

    /// What the provider tells of the account and of the server behind `url` once `first`,
    /// the first calendar discovery found, is known: lines for `discover` to print after its
    /// table (on CalDAV, the account's addresses and the server's facts); none where the
    /// provider has nothing to add.
    public func notes(at url: URL, api: String? = nil, first: DiscoveredCalendar) async -> [String] {
        await CalendarProviders.provider(api: api ?? settings.api, at: url).notes(at: url, server: self, first: first)
    }

    /// What the server says of the account behind `url` (a calendar home or a calendar of
    /// it): an OPTIONS request and two PROPFINDs.
    public func account(at url: URL) async throws -> ServerAccount {
        ServerAccount(try await client.schedulingAccount(at: url)).scheduled(as: facts(at: url))
    }

    /// The calendars an account pair would sync behind `url`, each with the folder of `folder`
    /// a first sync puts it in (a folder already there by the calendar's name, else a new one),
    /// in the order the server lists them.
    public func accountCalendars(at url: URL, folder: URL) async throws -> [AccountCalendar] {
        let calendars = try await discover(url).filter(\.holdsItems)
        let plan = CollectionPlan.plan(
            mapping: CollectionMapping(), calendars: calendars.map(\.href),
            folders: CollectionPlan.folders(in: folder), home: nil, remote: url)
        let names = Dictionary(
            (plan.sync + plan.newLocal).map { ($0.href.path, $0.name) }, uniquingKeysWith: { first, _ in first })
        return calendars.compactMap { calendar in
            names[calendar.href].map { AccountCalendar(folder: $0, calendar: calendar) }
        }
    }

    /// What the iCalendar feed at `url` holds: one GET, split as a subscription splits it.
    /// - Throws: `SubscriptionError` when it is not a feed calgw can use.
    public func feed(at url: URL) async throws -> FeedSummary {
        let storage = SubscriptionStorage(url: url, client: client.http)
        let (items, _) = try await storage.fetchAll()
        var kinds: [String] = []
        for kind in ["VEVENT", "VTODO", "VJOURNAL"] {
            let marker = Data("BEGIN:\(kind)\r\n".utf8)
            if items.contains(where: { $0.data.range(of: marker) != nil }) { kinds.append(kind) }
        }
        return FeedSummary(items: items.count, components: kinds)
    }
}
