import ArgumentParser
import CalendarSync
import Foundation

/// `calgw status`: what a sync would do now, conflicts, and the last sync time.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show pending changes on each side, conflicts and the last sync time; changes nothing.",
        discussion: """
            Scans both sides as a sync would and reports what a sync would do. Nothing is \
            written, not even the journal.

            When the server cannot be read (down, or refusing the credentials), the local \
            changes waiting to be sent are still shown, then the error.

            Exit codes: 0 nothing wrong; 1 when a sync would fail on something (a vdir file \
            that does not parse, reported as file:line: problem, or two files with one UID), \
            printed after everything else, or when a side cannot be read; 2 usage or config \
            error; 5 authentication failed.

            Examples:
              calgw status
              calgw status --all --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    struct StatusOutput: Encodable {
        var pair: String
        var lastSync: String?
        var items: Int
        /// Changes a sync would make, per side written.
        var pending: Pending
        var conflicts: [SyncReport.Conflict]
        var skipped: [String]
        var massDeletion: String?
        var errors: [String]
        /// What could not be read: `remote` (the counts are then the local changes alone),
        /// `both` (nothing is known); nil when both sides were read.
        var unreadable: String?
        /// An account pair: what a sync would do in each collection, by folder name.
        var collections: [String: SyncReport]?
        /// A subscription: local changes (edits, conflict copies, new events) a sync leaves in
        /// the vdir because the feed is read-only; nil when there are none.
        var keptLocally: Int?

        struct Pending: Encodable {
            var created: SyncReport.Counts
            var updated: SyncReport.Counts
            var deleted: SyncReport.Counts
        }
    }

    func run() async throws {
        let pairs = try global.loadConfig().select(pair: global.pair, all: global.all)
        var statuses: [StatusOutput] = []
        var worst = ExitStatus.success
        for configuration in pairs {
            var entry = StatusOutput(pair: configuration.name, items: 0, pending: .init(created: .init(), updated: .init(), deleted: .init()),
                                   conflicts: [], skipped: [], errors: [])
            var failure: ErrorDescription?
            do {
                let status = await PairRun(pair: try configuration.pair).status()
                entry.lastSync = status.lastSync
                entry.items = status.items
                entry.pending = .init(created: status.pending.created, updated: status.pending.updated, deleted: status.pending.deleted)
                entry.conflicts = status.pending.conflicts
                entry.skipped = status.pending.skipped
                entry.massDeletion = status.massDeletion
                entry.errors = status.pending.errors
                entry.unreadable = status.unreadable?.rawValue
                entry.collections = status.collections
                let kept = status.pending.pending.remote
                if kept > 0 { entry.keptLocally = kept }
                failure = status.failure.map(ErrorDescription.init)
            } catch {
                entry.unreadable = CalendarSync.PairStatus.Unreadable.both.rawValue
                failure = ErrorDescription(error)
            }
            if let failure { entry.errors.insert(failure.message, at: 0) }
            statuses.append(entry)
            if !output.json && !output.quiet { render(entry, showName: true) }
            if let failure {
                Terminal.reportError("\(configuration.name): \(failure.message)", hint: failure.hint)
                worst = .worse(worst, failure.status)
            } else {
                worst = .worse(worst, reportProblems(entry))
            }
        }
        if output.json {
            if global.all { try Terminal.printJSON(statuses) } else if let only = statuses.first { try Terminal.printJSON(only) }
        }
        if worst != .success { throw ExitWithStatus(status: worst) }
    }

    /// Prints what a sync would fail on (broken vdir files, two items with one UID) as errors on
    /// stderr, after the status itself; the exit status they give (1, or 0 when there are none).
    func reportProblems(_ s: StatusOutput) -> ExitStatus {
        for line in s.errors { Terminal.reportError("\(s.pair): \(line)") }
        return s.errors.isEmpty ? .success : .failure
    }

    func render(_ s: StatusOutput, showName: Bool) {
        Terminal.out("pair \(s.pair): \(s.items) items synced, last sync \(s.lastSync ?? "never")")
        func side(_ side: String, _ c: KeyPath<SyncReport.Counts, Int>) -> String {
            "\(s.pending.created[keyPath: c]) to create, \(s.pending.updated[keyPath: c]) to update, \(s.pending.deleted[keyPath: c]) to delete"
        }
        switch s.unreadable {
        case "remote":
            Terminal.out("  local:  not known: the remote side could not be read")
            Terminal.out("  remote: \(side("remote", \.remote)) (the local changes)")
        case "both":
            Terminal.out("  local:  not known")
            Terminal.out("  remote: not known")
        default:
            Terminal.out("  local:  \(side("local", \.local))")
            Terminal.out("  remote: \(side("remote", \.remote))")
        }
        if let kept = s.keptLocally { Terminal.out("  kept locally: \(kept) local change\(kept == 1 ? "" : "s") the read-only feed does not take") }
        for c in s.conflicts { Terminal.out("  conflict \(c.uid) (\(c.resolution))") }
        for line in s.skipped { Terminal.out("  skipped: \(line)") }
        if let m = s.massDeletion { Terminal.out("  warning: \(m)") }
    }
}
