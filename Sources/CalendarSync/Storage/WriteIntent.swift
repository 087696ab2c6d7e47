import Foundation

/// Why an item is written, as a storage may need to know: a server that schedules meetings
/// (RFC 6638) sends invitations, updates, cancellations and replies for what it stores unless
/// told the write is only a copy.
public enum WriteIntent: Sendable, Hashable {
    /// A copy of what exists elsewhere: every write a sync makes of its own accord.
    case copy
    /// The person's own action on this item (`calgw event reply`, say): the server schedules
    /// for it as it would for any client.
    case personsAction
}
