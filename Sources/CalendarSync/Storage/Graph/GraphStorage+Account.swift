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
}
