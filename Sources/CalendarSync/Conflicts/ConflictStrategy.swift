/// How a conflict (both sides changed since the last sync) is resolved (CLI.md).
public enum ConflictStrategy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Three-way merge per property against the last synced content; attendees are unioned;
    /// a clash on one property falls back to `newest`.
    case merge
    /// The version with the later LAST-MODIFIED, then the higher SEQUENCE; local on a tie.
    case newest
    /// The local version, whatever the remote side did.
    case localWins = "local-wins"
    /// The remote version, whatever the local side did.
    case remoteWins = "remote-wins"
    /// Keep both: the remote version keeps the UID, the local one is copied under a new UID.
    case keepBoth = "keep-both"
    /// Ask on a terminal; unresolved (exit 3) without one.
    case ask
}
