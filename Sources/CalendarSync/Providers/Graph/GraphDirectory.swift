import CalDAV
import Foundation
import Graph
import HTTP
import VDir

/// A Microsoft Graph mailbox's calendars (``CalendarDirectory``), and every call Graph makes
/// of the account rather than of one calendar: the calendars (`GET …/calendars`, every page),
/// making one (`POST …/calendars`), deleting one, and who the user is (`GET …/me`).
///
/// A calendar's href is its URL's path with a `/` (`/v1.0/me/calendars/{id}/`), and a new
/// folder is matched to a calendar by the calendar's name. Calendars sync one at a time: Graph
/// takes few requests at once from one mailbox.
struct GraphDirectory: CalendarDirectory {
    let http: HTTPClient
    /// The mailbox root, `…/v1.0/me/`.
    let mailbox: URL
    /// The pair's window, for each calendar's storage.
    let window: String?

    /// The directory of the mailbox at `url` (`…/v1.0/me/`, or one of its calendars).
    init(http: HTTPClient, account url: URL, window: String?) {
        self.http = http
        mailbox = GraphClient.mailbox(ofAccount: url)
        self.window = window
    }

    var provider: String { "Outlook" }
    var place: String { "in Outlook" }
    var calendarIDsMayChange: Bool { true }
    var concurrentCalendars: Int { 1 }

    var client: GraphClient { GraphClient(http: http, mailbox: mailbox) }

    func listing(mapping: CollectionMapping) async throws -> DirectoryListing {
        let calendars = try await Self.calendars(http: http, mailbox)
        return DirectoryListing(
            calendars: calendars.map { calendar in
                ListedCalendar(
                    href: CollectionHref(calendar.url.path + "/"),
                    suggestedName: calendar.displayName ?? calendar.url.lastPathComponent,
                    displayName: calendar.displayName, color: calendar.color)
            }, home: nil)
    }

    /// Makes a calendar named after the folder (its display name, else its name); Graph
    /// chooses where.
    func makeCalendar(for folder: VDirectory, named name: String, proposed: CollectionHref) async throws
        -> CalendarMaking.Outcome
    {
        let body = try JSONSerialization.data(withJSONObject: ["name": folder.metadata(.displayName) ?? name])
        let made = try client.decode(
            GraphCalendar.self,
            try await client.send("POST", URL(string: mailbox.absoluteString + "calendars")!, json: body))
        return .made(CollectionHref(URL(string: mailbox.absoluteString + "calendars/" + made.id)!.path + "/"))
    }

    func makesNoCalendar(for name: String) -> String? { nil }

    /// Deletes the calendar with its events, unless it is the mailbox's default one, or holds
    /// a meeting the account organizes: Graph would mail each attendee a cancellation, which a
    /// sync must not send for the person.
    /// - Throws: ``GraphError`` naming why it was not deleted.
    func deleteCalendar(_ href: CollectionHref) async throws {
        let calendar = url(of: href)
        let info = try await client.get(calendar, as: GraphCalendar.self)
        let name = info.name ?? calendar.lastPathComponent
        if info.isRemovable == false || info.isDefaultCalendar == true {
            throw GraphError(
                .refused(status: 400, code: "notRemovable"),
                "Outlook's calendar \(name) is the mailbox's own; it cannot be deleted")
        }
        var next: URL? = URL(
            string: calendar.absoluteString + "/events?$select=id,subject,isOrganizer,attendees&$top=100")
        while let url = next {
            let page = try await client.get(url, as: GraphPage<GraphEvent>.self)
            if let meeting = page.value.first(where: { $0.isOrganizer != false && !($0.attendees ?? []).isEmpty }) {
                throw GraphError(
                    .refused(status: 400, code: "holdsMeetings"),
                    "Outlook's calendar \(name) holds meetings you organize (\(meeting.subject ?? "one")); deleting it "
                        + "would mail their attendees",
                    recovery: "cancel them first (calgw event delete UID), or delete the calendar in Outlook")
            }
            next = page.nextLink.flatMap(URL.init(string:))
        }
        try await client.send("DELETE", calendar)
    }

    func storage(for href: CollectionHref, listed: ListedCalendar?) throws -> any CalendarStorage {
        try GraphStorage(http: http, calendar: url(of: href), window: window)
    }

    /// The signed-in user's addresses (`mail`, `userPrincipalName`) as calendar addresses: who
    /// organizes the meetings calgw adds, and who answers invitations. Graph mails the
    /// attendees of every meeting written, so the account counts as scheduling.
    /// - Throws: ``GraphError``.
    func account() async throws -> ServerAccount {
        struct User: Decodable {
            var mail: String?
            var userPrincipalName: String?
        }
        let me = URL(string: String(mailbox.absoluteString.dropLast()))!
        let user = try await client.get(me, as: User.self)
        var addresses: [String] = []
        for address in [user.mail, user.userPrincipalName].compactMap({ $0 }) where address.contains("@") {
            let mailto = "mailto:" + address
            if !addresses.contains(where: { $0.lowercased() == mailto.lowercased() }) { addresses.append(mailto) }
        }
        return ServerAccount(addresses: addresses, autoSchedules: true)
    }

    /// The calendars of the mailbox at `url`, asked with `http`: each with the URL a pair
    /// names it by (`…/me/calendars/{id}`), its name, its colour and whether the account may
    /// write to it.
    /// - Throws: ``GraphError``.
    static func calendars(http: HTTPClient, _ url: URL) async throws -> [DiscoveredCalendar] {
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

    /// The absolute URL of the calendar at `href` (without its closing `/`).
    func url(of href: CollectionHref) -> URL {
        let origin = URL(string: "/", relativeTo: mailbox)!.absoluteURL
        return URL(string: String(href.path.dropLast()), relativeTo: origin)!.absoluteURL
    }
}

extension DiscoveredCalendar {
    /// The Graph calendar `calendar` of `mailbox`.
    init(graph calendar: GraphCalendar, mailbox: URL) {
        let hex = calendar.hexColor ?? ""
        self.init(
            url: URL(string: mailbox.absoluteString + "calendars/" + calendar.id)!, displayName: calendar.name,
            color: hex.isEmpty ? calendar.color : hex, components: ["VEVENT"], writable: calendar.canEdit)
    }
}
