import CalDAV
import Foundation

/// What a server says of the account calgw signs in as (RFC 6638): its calendar addresses,
/// and whether the server sends invitations itself for the meetings it stores.
///
/// Codable as a pair's account cache (``Pair/accountCache``) holds it.
public struct ServerAccount: Sendable, Hashable, Codable {
    /// The account's calendar addresses (`mailto:…` first), from `calendar-user-address-set`.
    public var addresses: [String]
    /// The server schedules implicitly (`calendar-auto-schedule` in its DAV header): storing a
    /// meeting the account organizes sends invitations, unless the write asks otherwise.
    public var autoSchedules: Bool
    /// The account's schedule Inbox, where invitations to it arrive.
    public var inbox: URL?

    /// An account with these addresses, scheduling or not, with or without a known Inbox.
    public init(addresses: [String], autoSchedules: Bool, inbox: URL? = nil) {
        self.addresses = addresses
        self.autoSchedules = autoSchedules
        self.inbox = inbox
    }

    init(_ account: SchedulingAccount) {
        self.init(addresses: account.addresses, autoSchedules: account.autoSchedules, inbox: account.inbox)
    }

    /// The account as its server's `facts` say it is scheduled, where they know better than
    /// its DAV header (Xandikos advertises calendar-auto-schedule and sends nothing).
    func scheduled(as facts: ServerFacts) -> ServerAccount {
        var account = self
        switch facts.scheduling {
        case .never: account.autoSchedules = false
        case .always: account.autoSchedules = true
        case .asAdvertised: break
        }
        return account
    }
}

extension ServerAccount {
    /// One line on the account's scheduling: its calendar addresses (those that are addresses:
    /// not the principal's path some servers list among them, as SOGo and Radicale do), and
    /// what the server says it does with meetings.
    public var summary: String {
        let usable = OwnAddresses.usable(addresses)
        let who = usable.isEmpty ? "no calendar address" : usable.joined(separator: ", ")
        let what =
            autoSchedules
            ? "the server schedules meetings (calendar-auto-schedule): storing one you organize may invite its attendees"
            : "the server does not schedule meetings: attendees are not sent what it stores"
        return "account: \(who); \(what)"
    }
}
