import Foundation

/// What `status` knows of a pair: what a sync would do now, and when it last synced.
public struct PairStatus: Sendable {
    /// ISO 8601, nil before the first sync (for an account pair: its calendars' latest).
    public var lastSync: String?
    /// How many items the journal knows (an account pair: its calendars' journals together).
    public var items = 0
    /// What a sync would do (created, updated, deleted per side written, conflicts); its
    /// `errors` are what the sync would fail on: vdir files that do not parse (`path:line:
    /// problem`) and two items with one UID.
    public var pending = SyncReport()
    /// Set when a sync would refuse a mass deletion.
    public var massDeletion: String?
    /// What could not be read; nil when both sides were.
    public var unreadable: Unreadable?
    /// Why a side could not be read (nil when both were).
    public var failure: (any Error)?
    /// An account pair: what a sync would do in each calendar, by folder name.
    public var collections: [String: SyncReport]?

    /// A status with nothing known yet.
    public init() {}

    /// The side (or sides) `status` could not read.
    public enum Unreadable: String, Sendable, Codable {
        /// The server: `pending` holds the local changes alone.
        case remote
        /// The local side: a single file that does not parse, named in `pending.broken`.
        case local
        /// Neither: nothing is known.
        case both
    }
}
