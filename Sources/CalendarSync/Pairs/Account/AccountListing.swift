import CalDAV
import Foundation
import HTTP
import Logging

/// The calendars of an account and its calendar home: one PROPFIND Depth 1 of the home kept
/// from an earlier run, else discovery (RFC 6764) from the pair's `remote`.
struct AccountListing {
    /// The calendar collections that hold events or tasks.
    var calendars: [CalendarCollection]
    /// The calendar home, when it is known (nil when `remote` is a single calendar or the
    /// account holds no calendar yet).
    var home: URL?
    /// The schedule Inbox and Outbox, when the home's listing showed them (DAViCal's are
    /// members of the home): their tokens spare a request for the Inbox's.
    var scheduleCollections: [CalendarCollection] = []

    static func read(
        client: CalDAVClient, remote: URL, mapping: CollectionMapping,
        logger: Logger = Logger(label: "calgw.account")
    ) async throws -> AccountListing {
        if let home = mapping.home(for: remote) {
            do {
                let (found, schedule) = try await client.homeListing(home)
                // An empty home where calendars were: discover again rather than believe it.
                if !found.isEmpty || mapping.entries.isEmpty {
                    return AccountListing(
                        calendars: found.filter(holdsItems), home: home, scheduleCollections: schedule)
                }
            } catch let error as HTTPError
                where error.code != .authenticationFailed && error.code != .connectionFailed
                && error.code != .tlsVerificationFailed
            {
                logger.info(
                    "the kept calendar home did not answer; discovering again",
                    metadata: ["home": "\(home.path)", "error": "\(error.message)"])
            }
        }
        let discovered = try await client.discoverAccount(remote)
        let found = discovered.calendars.filter(holdsItems)
        // Calendars in folders of their own (Google's `/caldav/v2/<id>/events/`): the home the
        // server named, so later runs list it again instead of discovering.
        let named = found.count > 1 ? discovered.home : nil
        return AccountListing(calendars: found, home: homeURL(remote, calendars: found) ?? named)
    }

    static func holdsItems(_ calendar: CalendarCollection) -> Bool { calendar.holdsItems }

    /// The folder holding the calendars, when they share one and `remote` is not itself one of them.
    static func homeURL(_ remote: URL, calendars: [CalendarCollection]) -> URL? {
        guard !calendars.isEmpty else { return nil }
        let remotePath = HrefResolver.href(of: remote).path
        if calendars.contains(where: { $0.href.path == remotePath || $0.href.path == remotePath + "/" })
            && calendars.count == 1
        {
            return nil
        }
        let parents = Set(calendars.map { parent(of: $0.href.path) })
        guard parents.count == 1, let path = parents.first else { return nil }
        return URL(string: path, relativeTo: origin(remote))?.absoluteURL
    }

    static func parent(of path: String) -> String {
        let parent = path.split(separator: "/").dropLast().joined(separator: "/")
        return parent.isEmpty ? "/" : "/" + parent + "/"
    }

    /// The calendar home's path: the folder holding the calendars (the remote URL itself when
    /// it lists none yet).
    static func homePath(_ remote: URL, calendars: [String]) -> String {
        let parents = Set(calendars.map(parent(of:)))
        if parents.count == 1, let only = parents.first { return only }
        return remote.path.hasSuffix("/") ? remote.path : remote.path + "/"
    }

    static func origin(_ url: URL) -> URL {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
        parts.path = "/"
        parts.query = nil
        return parts.url ?? url
    }
}

extension CalendarCollection {
    /// Whether an account pair syncs this collection: it holds events or tasks (or says
    /// nothing), so it is not a scheduling inbox or outbox, nor an address book.
    public var holdsItems: Bool {
        components.isEmpty || components.contains("VEVENT") || components.contains("VTODO")
    }
}
