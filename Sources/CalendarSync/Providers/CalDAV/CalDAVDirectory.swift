import CalDAV
import Foundation
import Logging
import VDir

/// A CalDAV account's calendars (``CalendarDirectory``): listed with one PROPFIND Depth 1 of
/// the calendar home kept from an earlier run, else found by discovery (RFC 6764) from the
/// pair's `remote`; made with MKCALENDAR, except on a server whose facts say it makes none.
struct CalDAVDirectory: CalendarDirectory {
    let client: CalDAVClient
    /// The pair's `remote`: where discovery starts, and the origin hrefs resolve against.
    let remote: URL
    /// The server product the config names (``ServerSettings/product``); nil: detected.
    let product: ServerProduct?
    /// What the server does, settled once its answers name it.
    let settledFacts: SettledFacts

    init(client: CalDAVClient, remote: URL, product: ServerProduct?) {
        self.client = client
        self.remote = remote
        self.product = product
        self.settledFacts = SettledFacts(product: product, url: remote)
    }

    var provider: String { "the server" }
    var place: String { "on the server" }

    /// Calendars syncing at once: more than this gains nothing on two cores and loads a small
    /// server.
    var calendarIDsMayChange: Bool { false }
    var concurrentCalendars: Int { 4 }
    /// The schedule Inbox's tokens, read once for all the account's calendars in a run: from
    /// the home's listing where the Inbox is one of its members (DAViCal).
    let inboxTokens = InboxTokens()

    func listing(mapping: CollectionMapping) async throws -> DirectoryListing {
        let listing = try await AccountListing.read(client: client, remote: remote, mapping: mapping)
        for collection in listing.scheduleCollections { inboxTokens.keep(collection, at: collection.href.path) }
        return DirectoryListing(
            calendars: listing.calendars.map { calendar in
                let href = CollectionHref(calendar.href.path)
                return ListedCalendar(
                    href: href, suggestedName: href.namingSegment, displayName: calendar.displayName,
                    color: calendar.color, primed: calendar)
            }, home: listing.home)
    }

    func makeCalendar(for folder: VDirectory, named name: String, proposed: CollectionHref) async throws
        -> CalendarMaking.Outcome
    {
        return try await CalendarMaking.make(
            url(of: proposed), href: proposed, for: folder, named: name, client: client)
    }

    func makesNoCalendar(for name: String) -> String? {
        guard case .never(let advice) = settledFacts.facts(client.traits).makesCalendars else { return nil }
        return CalendarMaking.note(folder: name, unmadeBecause: advice)
    }

    func deleteCalendar(_ href: CollectionHref) async throws {
        try await client.deleteCollection(url(of: href))
    }

    func storage(for href: CollectionHref, listed: ListedCalendar?) throws -> any CalendarStorage {
        let calendar = CalDAVStorage(
            client: client, collection: url(of: href), product: product, logger: Logger(label: "calgw.caldav-storage"),
            inboxTokens: inboxTokens)
        if let collection = listed?.primed as? CalendarCollection { calendar.prime(with: collection) }
        return calendar
    }

    func account() async throws -> ServerAccount {
        ServerAccount(try await client.schedulingAccount(at: remote)).scheduled(as: settledFacts.facts(client.traits))
    }

    /// The absolute URL of `href` on the account's server.
    func url(of href: CollectionHref) -> URL {
        URL(string: href.path, relativeTo: AccountListing.origin(remote))?.absoluteURL ?? remote
    }
}
