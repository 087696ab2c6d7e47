import CalDAV
import Foundation

extension CalendarServer {
    /// The calendars of the Microsoft Graph mailbox at `url` (`…/v1.0/me/`, or one of its
    /// calendars): one `GET …/calendars`, every page. Each comes with the URL a pair names it
    /// by (`…/me/calendars/{id}`), its name, its colour and whether the account may write to it.
    /// - Throws: ``GraphError``.
    public func graphCalendars(_ url: URL) async throws -> [DiscoveredCalendar] {
        try await GraphDirectory.calendars(http: client.http, url)
    }
}
