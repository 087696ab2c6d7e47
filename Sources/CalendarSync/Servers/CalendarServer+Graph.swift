import CalDAV
import Foundation
import Graph

extension CalendarServer {
    /// The calendars of the Microsoft Graph mailbox at `url` (`…/v1.0/me/`, or one of its
    /// calendars): one `GET …/calendars`, every page. Each comes with the URL a pair names it
    /// by (`…/me/calendars/{id}`), its name, its colour and whether the account may write to it.
    /// - Throws: ``GraphError``.
    public func graphCalendars(_ url: URL) async throws -> [DiscoveredCalendar] {
        try await Self.graphCalendars(http: client.http, url)
    }

    /// The calendars of the Graph mailbox at `url`, asked with `http`.
    static func graphCalendars(http: HTTPClient, _ url: URL) async throws -> [DiscoveredCalendar] {
        let mailbox = GraphClient.mailbox(ofAccount: url)
        let graph = GraphClient(http: http, mailbox: mailbox)
        var found: [DiscoveredCalendar] = []
        var next: URL? = URL(string: mailbox.absoluteString + "calendars")
        while let page = next {
            let listed = try await graph.get(page, as: GraphPage<GraphCalendar>.self)
            found += listed.value.map { DiscoveredCalendar(graph: $0, mailbox: mailbox) }
            next = listed.nextLink.flatMap(URL.init(string:))
        }
        return found
    }
}

extension DiscoveredCalendar {
    /// The Graph calendar `calendar` of `mailbox`.
    init(graph calendar: GraphCalendar, mailbox: URL) {
        url = URL(string: mailbox.absoluteString + "calendars/" + calendar.id)!
        href = url.path
        displayName = calendar.name
        let hex = calendar.hexColor ?? ""
        color = hex.isEmpty ? calendar.color : hex
        components = ["VEVENT"]
        writable = calendar.canEdit
    }
}
