import CalDAV
import Foundation

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
}
