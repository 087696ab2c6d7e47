import Foundation
import OAuth

extension PairStatus {
    /// `status --json` for one pair (CLI.md).
    public struct Record: Encodable {
        /// The pair's name.
        public var pair: String
        /// When the pair last synced cleanly; nil: never.
        public var lastSync: String?
        /// How many items the journal knows (in sync at the last run).
        public var synced: Int
        /// Changes a sync would make, counted per side written.
        public var pending: Pending
        /// The changes one by one (conflicts aside).
        public var items: [PendingItem]
        /// Items changed on both sides, with each side's summary and the strategy a sync applies.
        public var conflicts: [PendingItem]
        /// vdir files a sync would stop on.
        public var broken: [BrokenFile]
        /// UIDs held twice on one side.
        public var duplicates: [DuplicateUID]
        /// What a sync would pass over, and why.
        public var skipped: [String]
        /// An account pair: calendars or folders a sync would make.
        public var notes: [String]
        /// Why a sync would refuse a mass deletion; nil when it would not.
        public var massDeletion: String?
        /// What a sync would fail on, and what could not be read.
        public var errors: [ReportedError]
        /// What could not be read: `remote` (the counts are then the local changes alone),
        /// `both` (nothing is known); nil when both sides were read.
        public var unreadable: String?
        /// An account pair: what a sync would do in each collection, by folder name.
        public var collections: [String: SyncReport]?
        /// A subscription: local changes (edits, conflict copies, new events) a sync leaves in
        /// the vdir because the feed is read-only; nil when there are none.
        public var keptLocally: Int?
        /// Items the server refused or failed on, kept as they are in the vdir and not sent again
        /// until they change: each with its UID and what the server said.
        public var heldBack: [HeldBackItem]
        /// A pair that signs in with OAuth: its sign-in as the token file tells it.
        public var signIn: SignInState?

        /// An item held back (``heldBack``).
        public struct HeldBackItem: Encodable {
            /// The item's UID.
            public var uid: String
            /// What the server said, or why the item stays, in one line.
            public var reason: String
        }

        /// Changes a sync would make, per side written.
        public struct Pending: Encodable {
            /// Items to create.
            public var created: SyncReport.Counts
            /// Items to update.
            public var updated: SyncReport.Counts
            /// Items to delete.
            public var deleted: SyncReport.Counts
        }

        /// Nothing known yet of the pair `pair`.
        public init(pair: String) {
            self.pair = pair
            synced = 0
            pending = Pending(created: .init(), updated: .init(), deleted: .init())
            items = []; conflicts = []; broken = []; duplicates = []; skipped = []; notes = []; errors = []
            heldBack = []
        }

        /// The record of `status`, what a sync of the pair `pair` would do now.
        public init(pair: String, status: PairStatus) {
            self.init(pair: pair)
            let report = status.pending
            lastSync = status.lastSync
            synced = status.items
            pending = Pending(created: report.created, updated: report.updated, deleted: report.deleted)
            items = (report.items ?? []).filter { $0.action != .conflict }
            conflicts = (report.items ?? []).filter { $0.action == .conflict }
            broken = report.broken ?? []
            duplicates = report.duplicates ?? []
            skipped = report.skipped
            notes = report.notes
            massDeletion = status.massDeletion
            errors = report.errors
            unreadable = status.unreadable?.rawValue
            collections = status.collections
            heldBack = report.heldBack.sorted { $0.key < $1.key }.map { HeldBackItem(uid: $0.key, reason: $0.value) }
            let kept = report.pending.remote
            if kept > 0 { keptLocally = kept }
        }
    }
}
