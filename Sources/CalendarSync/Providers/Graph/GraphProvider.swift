import Foundation

/// Microsoft Graph (`…/v1.0/me/calendars/{id}`), the provider of Outlook and Microsoft 365
/// calendars: the only one spoken at graph.microsoft.com, and at any other host whose pair
/// says `api = "graph"` (a test server, a proxy).
struct GraphProvider: CalendarProvider {
    var name: String { "graph" }

    func claims(_ url: URL) -> Bool { url.host?.lowercased() == "graph.microsoft.com" }

    /// Graph says nothing on a stored event of what was sent: its answers and invitations go
    /// out with the requests that make them.
    var marksSchedulingStatus: Bool { false }

    func storage(at url: URL, settings: ServerSettings, use: ProviderUse) throws -> any CalendarStorage {
        try GraphStorage(http: try settings.client(owner: use.owner).http, calendar: url, window: use.window)
    }

    func directory(at url: URL, settings: ServerSettings, use: ProviderUse) throws -> any CalendarDirectory {
        GraphDirectory(http: try settings.client(owner: use.owner).http, account: url, window: use.window)
    }

    /// One `GET …/calendars`, every page.
    func discover(_ url: URL, server: CalendarServer) async throws -> [DiscoveredCalendar] {
        try await GraphDirectory.calendars(http: server.client.http, url)
    }
}
