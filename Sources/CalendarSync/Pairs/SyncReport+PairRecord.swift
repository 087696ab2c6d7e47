import Foundation

extension SyncReport {
    /// A pair's report for `--json`: CLI.md's shape plus the pair's name.
    public struct PairRecord: Encodable {
        /// The pair's name.
        public var pair: String
        /// Items created, per side.
        public var created: SyncReport.Counts
        /// Items updated, per side.
        public var updated: SyncReport.Counts
        /// Items deleted, per side.
        public var deleted: SyncReport.Counts
        /// The conflicts met, each with how it was resolved.
        public var conflicts: [SyncReport.Conflict]
        /// What failed.
        public var errors: [ReportedError]
        /// Changes left for a later run, per side.
        public var pending: SyncReport.Counts
        /// What was passed over, and why.
        public var skipped: [String]
        /// An account pair: calendars or folders made (a dry run: that would be made).
        public var notes: [String]
        /// Whether nothing was written (`--dry-run`).
        public var dryRun: Bool
        /// An account pair: each collection's report, by folder name.
        public var collections: [String: SyncReport]?
        /// A dry run: the plan item by item, the files it would stop on, UIDs held twice.
        public var items: [PendingItem]?
        /// The files a dry run would stop on.
        public var broken: [BrokenFile]?
        /// UIDs a dry run found held twice.
        public var duplicates: [DuplicateUID]?

        /// The record of `report`, a run of the pair `pair`.
        public init(pair: String, report: SyncReport) {
            self.pair = pair
            created = report.created; updated = report.updated; deleted = report.deleted
            conflicts = report.conflicts; errors = report.errors; pending = report.pending
            skipped = report.skipped; notes = report.notes; dryRun = report.dryRun
            collections = report.collections
            items = report.items; broken = report.broken; duplicates = report.duplicates
        }
    }
}
