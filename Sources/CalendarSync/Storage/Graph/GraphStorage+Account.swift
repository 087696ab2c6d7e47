import CalDAV
import Foundation
import Graph

extension GraphStorage {
    /// The signed-in user's addresses (`mail`, `userPrincipalName`) as calendar addresses: who
    /// organizes the meetings calgw adds, and who answers invitations. Graph mails the
    /// attendees of every meeting written, so the account counts as scheduling.
    /// - Throws: ``GraphError``.
    public func account() async throws -> ServerAccount {
        struct User: Decodable {
            var mail: String?
            var userPrincipalName: String?
        }
        let me = URL(string: String(client.mailbox.absoluteString.dropLast()))!
        let user = try await client.get(me, as: User.self)
        var addresses: [String] = []
        for address in [user.mail, user.userPrincipalName].compactMap({ $0 }) where address.contains("@") {
            let mailto = "mailto:" + address
            if !addresses.contains(where: { $0.lowercased() == mailto.lowercased() }) { addresses.append(mailto) }
        }
        return ServerAccount(addresses: addresses, autoSchedules: true)
    }

    /// Makes a calendar named `name` in the mailbox at `mailbox` (`…/v1.0/me/`).
    /// - Returns: its URL, `…/me/calendars/{id}`.
    /// - Throws: ``GraphError``.
    static func makeCalendar(http: HTTPClient, mailbox: URL, name: String) async throws -> URL {
        let root = GraphClient.mailbox(ofAccount: mailbox)
        let client = GraphClient(http: http, mailbox: root)
        let body = try JSONSerialization.data(withJSONObject: ["name": name])
        let made = try client.decode(
            GraphCalendar.self,
            try await client.send("POST", URL(string: root.absoluteString + "calendars")!, json: body))
        return URL(string: root.absoluteString + "calendars/" + made.id)!
    }

    /// Deletes the calendar at `calendar` (`…/me/calendars/{id}`) with its events, unless it is
    /// the mailbox's default one, or holds a meeting the account organizes: Graph would mail
    /// each attendee a cancellation, which a sync must not send for the person.
    /// - Throws: ``GraphError`` naming why it was not deleted.
    static func deleteCalendar(http: HTTPClient, calendar: URL) async throws {
        guard let root = GraphClient.mailbox(of: calendar) else { return }
        let client = GraphClient(http: http, mailbox: root)
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
}
