import CalDAV
import Foundation

/// CalDAV (RFC 4791, RFC 6638), the provider of every remote no other claims: its calendars'
/// storage (``CalDAVStorage``), its accounts (``CalDAVDirectory``), and discovery from any URL
/// of a server (RFC 6764). What one server product does differently is a fact
/// (``ServerFacts``), not another provider.
struct CalDAVProvider: CalendarProvider {
    var name: String { "caldav" }

    /// A CalDAV server marks what it did with a meeting's messages on the stored version.
    var marksSchedulingStatus: Bool { true }

    func storage(at url: URL, settings: ServerSettings, use: ProviderUse) throws -> any CalendarStorage {
        CalDAVStorage(
            client: try settings.client(owner: use.owner, for: url), collection: url, product: settings.product)
    }

    func directory(at url: URL, settings: ServerSettings, use: ProviderUse) throws -> any CalendarDirectory {
        CalDAVDirectory(client: try settings.client(owner: use.owner, for: url), remote: url, product: settings.product)
    }

    func discover(_ url: URL, server: CalendarServer) async throws -> [DiscoveredCalendar] {
        try await server.client.discover(url).map(DiscoveredCalendar.init)
    }

    /// What the server says of the account and of itself, once the first calendar is found.
    func notes(at url: URL, server: CalendarServer, first: DiscoveredCalendar) async -> [String] {
        let account = try? await server.account(at: first.url)
        return (account.map { [$0.summary] } ?? []) + [server.facts(at: url).summary]
    }

    /// The account's privileges on the calendar (RFC 3744 `current-user-privilege-set`, one
    /// Depth 0 PROPFIND).
    func isReadOnly(_ url: URL, settings: ServerSettings, use: ProviderUse) async -> Bool? {
        guard let client = try? settings.client(owner: use.owner),
            let info = try? await client.collectionInfo(url, tokens: [])
        else { return nil }
        return info.writable.map { !$0 }
    }
}
