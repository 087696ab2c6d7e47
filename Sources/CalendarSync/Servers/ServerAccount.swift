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
}
