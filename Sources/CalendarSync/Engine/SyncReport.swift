/// What a run did (or, with `--dry-run`, would do), in the shape of CLI.md's JSON.
public struct SyncReport: Sendable, Codable, Equatable {
    /// A count per side.
    public struct Counts: Sendable, Codable, Equatable {
        /// The count on the local side.
        public var local = 0
        /// The count on the remote side.
        public var remote = 0
        /// Counts of `local` and `remote`.
        public init(local: Int = 0, remote: Int = 0) {
            self.local = local
            self.remote = remote
        }
        /// The count on `side`.
        public subscript(side: Side) -> Int {
            get { side == .local ? local : remote }
            set { if side == .local { local = newValue } else { remote = newValue } }
        }
        /// Both sides' counts added.
        public var total: Int { local + remote }
    }

    /// A conflict and how it ended.
    public struct Conflict: Sendable, Codable, Equatable {
        /// The item's UID.
        public var uid: String
        /// The strategy that resolved it (`merge`, `newest`, ...), or `unresolved`, or
        /// `pending` (pull and push leave conflicts for sync).
        public var resolution: ConflictOutcome
        /// A conflict on `uid`, ended as `resolution`.
        public init(uid: String, resolution: ConflictOutcome) {
            self.uid = uid
            self.resolution = resolution
        }
    }

    /// Items created, per side written.
    public var created = Counts()
    /// Items updated, per side written.
    public var updated = Counts()
    /// Items deleted, per side written.
    public var deleted = Counts()
    /// The conflicts met, and how each ended.
    public var conflicts: [Conflict] = []
    /// What failed, item by item (and for the run as a whole); in JSON, their lines.
    public var errors: [ReportedError] = []
    /// Writes left for another direction (per side written).
    public var pending = Counts()
    /// Items not synced and why (two items with one UID, files that do not parse), and what a
    /// run had to do besides (a damaged journal moved aside).
    public var skipped: [String] = []
    /// What an account's run did (or a dry run would do) besides items: calendars made on the
    /// server for new folders, folders made for new calendars.
    public var notes: [String] = []
    /// Answers to invitations not sent because the organizer changed the meeting since the
    /// person's copy (see ``SyncPolicy/answers``), by UID. Not part of the JSON: `errors` says
    /// it for each.
    public var unsentAnswers: [String] = []
    /// Items whose write the server failed in its own code in this run, held back from later
    /// runs while the vdir keeps them (see ``HeldBackWrite``): what the server said, by key.
    /// Not part of the JSON: `errors` says it for each.
    public var heldBack: [String: String] = [:]
    /// What the server did with the person's deletions of meetings in this run, by UID (see
    /// ``DeletionScheduling``). Not part of the JSON: the command that deleted reports it.
    public var deletionScheduling: [String: DeletionScheduling] = [:]
    /// The person's actions (``SyncPolicy/personsActions``) that need nothing more from a
    /// later run: sent to the server, or with nothing to send. Not part of the JSON.
    public var settledActions: Set<String> = []
    /// True for a report of what a run would do (`--dry-run`, `status`): nothing was written.
    public var dryRun = false
    /// An account pair's run: each collection's own report, by folder name (nil for a pair of
    /// one collection). The fields above are their sums.
    public var collections: [String: SyncReport]?
    /// A dry run's (and `status`'s) changes, item by item; nil for a run that wrote.
    public var items: [PendingItem]?
    /// A dry run's (and `status`'s) vdir files that a sync would stop on.
    public var broken: [BrokenFile]?
    /// A dry run's (and `status`'s) UIDs held twice on one side.
    public var duplicates: [DuplicateUID]?

    enum CodingKeys: String, CodingKey {
        case created, updated, deleted, conflicts, errors, pending, skipped, notes, dryRun, collections, items, broken,
            duplicates
    }

    /// An empty report: nothing done.
    public init() {}

    /// Adds an error line, with its cause when it has one worth grouping by.
    public mutating func addError(_ line: String, cause: ErrorCause? = nil) {
        errors.append(ReportedError(line, cause: cause))
    }

    /// Conflicts the strategy could not decide (exit 3).
    public var unresolvedConflicts: Int { conflicts.filter { $0.resolution == .unresolved }.count }

    /// One line for people: `2 created, 1 updated, 0 deleted locally; ...`.
    public var summary: String {
        func side(_ s: Side, _ word: String) -> String {
            "\(word): \(created[s]) created, \(updated[s]) updated, \(deleted[s]) deleted"
        }
        var parts = [side(.local, "local"), side(.remote, "remote")]
        if !conflicts.isEmpty { parts.append("\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s")") }
        if pending.total > 0 { parts.append("\(pending.total) pending") }
        if !errors.isEmpty { parts.append("\(errors.count) error\(errors.count == 1 ? "" : "s")") }
        return (dryRun ? "would do — " : "") + parts.joined(separator: "; ")
    }
}
