import Foundation
import VDir

/// The one entry point that turns a pair into a run: `sync`, `pull` and `push` (``run()``),
/// `status` (``status()``), and the calendar the `event` commands edit (``calendar(_:)``).
///
/// It decides the journal paths, makes the storages, builds the policy (with the pair's
/// window) and takes the lock, for a single calendar and for an account alike, so that no two
/// commands can disagree on any of them.
///
/// ```swift
/// var options = PairRun.Options(direction: .pull)
/// options.dryRun = true
/// let outcome = try await PairRun(pair: pair, options: options).run()
/// print(outcome.report.summary)
/// ```
public struct PairRun: Sendable {
    /// The pair to run.
    public var pair: Pair
    /// How this run behaves beyond what the pair says.
    public var options: Options

    /// A run of `pair`, by default a two-way sync with the pair's conflict strategy.
    public init(pair: Pair, options: Options = Options()) {
        self.pair = pair
        self.options = options
    }

    /// How one run behaves, beyond what the pair says.
    public struct Options: Sendable {
        /// Which sides the run may write.
        public var direction: SyncDirection
        /// The conflict strategy instead of the pair's.
        public var conflict: ConflictStrategy?
        /// Propagate the emptying of a side (refused by default).
        public var allowMassDelete = false
        /// Plan and report, write nothing.
        public var dryRun = false
        /// An account pair: only this calendar (its folder name).
        public var collection: String?
        /// An account pair: a calendar gone from one side is deleted on the other.
        public var allowCollectionDelete = false
        /// Asked about each conflict under the `ask` strategy (a single calendar only).
        public var prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)?
        /// The UIDs whose writes are the person's own action (a reply): a scheduling server
        /// sends for them what it would for any client. Every other write is a copy.
        public var personsActions: Set<String> = []
        /// Of those, the UIDs answering an invitation (see ``SyncPolicy/answers``).
        public var answers: Set<String> = []
        /// Called after each side effect (crash tests).
        public var faultHook: FaultHook?
        /// Where the run is asked to stop early (SIGINT, SIGTERM): it then stops at its next
        /// safe point and throws ``RunStopped``, every write it made recorded.
        public var stop: StopGate?
        /// Asked once, when the transfer starts, for the handler of its progress; told what is
        /// transferred: nil for a single calendar, a calendar's folder name, or "N calendars".
        /// Not asked by a dry run.
        public var progress: (@Sendable (_ what: String?) -> SyncProgressHandler?)?

        /// A run in `direction`, with `conflict` instead of the pair's strategy if given, and every
        /// other option off.
        public init(direction: SyncDirection = .both, conflict: ConflictStrategy? = nil) {
            self.direction = direction
            self.conflict = conflict
        }
    }

    /// What a run did. An account's calendar refused for safety (a mass deletion) while the
    /// others synced is one of its errors, of kind `.refusedForSafety`; a single calendar's
    /// refusal is thrown instead.
    public struct Outcome: Sendable {
        /// What the run did, or with `dryRun` would do.
        public var report: SyncReport
    }

    /// The policy of this run: the direction, the strategy (the run's, else the pair's), the
    /// mass-deletion rail and the pair's window. A pair with a read-only remote (a
    /// subscription) syncs as a pull.
    public var policy: SyncPolicy {
        let direction = pair.remote.isReadOnly && options.direction == .both ? .pull : options.direction
        var policy = SyncPolicy(
            direction: direction, conflict: options.conflict ?? pair.conflict,
            allowMassDelete: options.allowMassDelete)
        policy.window = pair.window.flatMap { SyncWindow.parse($0) }
        policy.itemTypes = pair.itemTypes
        policy.remoteIsReadOnly = pair.remote.isReadOnly
        policy.personsActions = pair.schedules ? options.personsActions : []
        policy.answers = pair.schedules ? options.answers : []
        policy.schedules = pair.schedules
        return policy
    }

    /// Syncs the pair in the options' direction.
    /// - Throws: `SyncError` (a mass deletion on a single calendar, a side that cannot be
    ///   read, an unknown `collection`), `JournalError.locked` when another run holds the pair.
    public func run() async throws -> Outcome {
        var outcome = try await runCalendars()
        // Meeting messages an earlier command's mail_command did not take go again, once.
        if !options.dryRun, pair.schedules, let command = pair.mailCommand {
            outcome.report.notes += MailQueue(pair: pair).resend(with: MailCommand(command))
        }
        return outcome
    }

    /// The run of the pair's calendar, or of each of an account's.
    private func runCalendars() async throws -> Outcome {
        if pair.isAccount { return try await AccountRun(run: self).run() }
        if let name = options.collection {
            throw SyncError(
                .unknownCollection, "pair \(pair.name) is a single calendar; it has no collection \(name)",
                recovery: "drop --collection")
        }
        if pair.remote.isReadOnly, options.direction == .push {
            throw SyncError(
                .unsupported, "pair \(pair.name) subscribes to a read-only feed: there is nothing to push to it",
                recovery: "use calgw pull or calgw sync for this pair; local edits stay in the vdir")
        }
        if !options.dryRun, let folder = pair.localFolder {
            // Made by the first run even when nothing is pulled, for the programs reading it.
            try VDirectory(url: folder).createIfMissing()
        }
        let local = try pair.storage(pair.local), remote = try pair.storage(pair.remote)
        let progress = options.dryRun ? nil : options.progress?(nil)
        let report = try await SyncSession.run(
            journalAt: pair.journal, local: local, remote: remote,
            policy: policy, dryRun: options.dryRun, prompt: options.prompt,
            faultHook: options.faultHook, progress: progress, stop: options.stop)
        return Outcome(report: report)
    }
}
