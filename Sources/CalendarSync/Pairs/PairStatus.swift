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

extension PairRun {
    /// What a sync would do now; writes nothing on either side, not even the journal.
    ///
    /// When the server cannot be read (down, or refusing the credentials) the local changes
    /// waiting to be sent are still counted, with ``PairStatus/unreadable`` set to `remote`;
    /// the failure itself is in ``PairStatus/failure``, never thrown.
    public func status() async -> PairStatus {
        var status = PairStatus()
        do {
            if pair.isAccount {
                var dryRun = self
                dryRun.options.dryRun = true
                dryRun.options.direction = .both
                let account = try AccountRun(run: dryRun)
                let report = try await account.run().report
                status.pending = report
                status.pending.collections = nil
                status.collections = report.collections
                // The calendars' journals: items known in all, and the latest of their syncs.
                for name in (report.collections ?? [:]).keys {
                    guard let summary = try? Journal.summary(at: account.journalURL(name)) else { continue }
                    status.items += summary.items
                    if let last = summary.lastSync, last > (status.lastSync ?? "") { status.lastSync = last }
                }
                return status
            }
            let local = try Pair.storage(pair.local), remote = try Pair.storage(pair.remote)
            let found = try await SyncSession.status(journalAt: pair.journal, local: local, remote: remote, policy: policy)
            status.lastSync = found.lastSync
            status.items = found.items
            status.pending = found.pending
            if pair.remote.isReadOnly { status.pending.nameReadOnlyResolutions(policy.conflict) }
            status.massDeletion = found.massDeletion
        } catch {
            status.failure = error
            status.unreadable = .both
            // What the journal last recorded stays known whatever cannot be read now.
            if !pair.isAccount, let summary = try? Journal.summary(at: pair.journal) {
                status.lastSync = summary.lastSync
                status.items = summary.items
            }
            if let broken = Self.brokenSingleFile(error) {
                status.unreadable = .local
                status.pending.broken = [broken]
            }
            if !pair.isAccount, let e = error as? SyncError, e.code == .scanFailed || e.code == .authenticationFailed,
               let storage = try? Pair.storage(pair.local),
               let local = try? await SyncSession.localStatus(journalAt: pair.journal, local: storage, policy: policy) {
                status.unreadable = .remote
                status.lastSync = local.lastSync
                status.items = local.items
                status.pending = local.pending
                status.pending.errors = []
                status.pending.conflicts = []
                status.massDeletion = local.massDeletion
            }
        }
        return status
    }

    /// The place and problem of a single-file calendar that does not parse, from the error
    /// its scan stopped with; nil for any other error.
    static func brokenSingleFile(_ error: any Error) -> BrokenFile? {
        guard let sync = error as? SyncError, sync.code == .scanFailed, let file = sync.cause as? SingleFileError,
              file.code == .invalid else { return nil }
        return BrokenFile(file.message)
    }
}
