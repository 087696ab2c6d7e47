import ArgumentParser
import CalDAV
import CalendarSync
import Foundation
import Synchronization

/// `calgw sync`: both directions, conflicts resolved by the pair's strategy.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the vdir and the server both ways.",
        discussion: """
            Local and remote changes since the last sync are applied to the other side; items \
            changed on both sides are resolved by the pair's conflict strategy (merge by default).

            Exit codes: 0 done, 1 error (rerunning is safe), 2 usage or config error, \
            3 conflicts left unresolved, 4 refused for safety (mass deletion), 5 authentication failed.

            Ctrl-C (SIGINT) or SIGTERM stops the run at its next safe point, with every write \
            made so far recorded, and the process ends by that signal (status 130 or 143 in a \
            shell). A second one stops it at once, which is as safe as a kill: the next run \
            settles what was written.

            Examples:
              calgw sync
              calgw sync --all --conflict newest
              calgw sync --dry-run             # print the plan, change nothing
              calgw sync --conflict ask        # decide each conflict on the terminal
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var run: SyncRunOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await PairRunner(global: global, run: run, output: output, direction: .both).runAll()
    }
}

/// Options of `pull`, `push` and `sync`.
struct SyncRunOptions: ParsableArguments {
    @Flag(help: "Print what would be done; change nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("How to resolve conflicts, instead of the pair's setting.", valueName: "strategy"))
    var conflict: ConflictStrategy?

    @Flag(help: "Propagate the deletion of everything on one side (refused by default).")
    var allowMassDelete = false

    @Option(help: ArgumentHelp("For a pair with collections: work on this calendar (its folder name) only.", valueName: "name"))
    var collection: String?

    @Flag(help: "For a pair with collections: a calendar deleted on one side is deleted on the other (its folder and events, or the calendar on the server). By default it is reported and left alone.")
    var allowCollectionDelete = false

    /// The library's options of a run in `direction`.
    func options(_ direction: SyncDirection) -> PairRun.Options {
        var options = PairRun.Options(direction: direction, conflict: conflict)
        options.allowMassDelete = allowMassDelete
        options.dryRun = dryRun
        options.collection = collection
        options.allowCollectionDelete = allowCollectionDelete
        options.faultHook = TestFaultHook.fromEnvironment()
        if !dryRun { options.stop = StopSignals.gate }
        return options
    }
}

/// Runs `pull`, `push` or `sync` over the selected pairs and renders the reports.
struct PairRunner {
    var global: GlobalOptions
    var run: SyncRunOptions
    var output: OutputOptions
    var direction: SyncDirection

    /// A pair's report for `--json`: CLI.md's shape plus the pair's name.
    struct PairOutput: Encodable {
        var pair: String
        var created: SyncReport.Counts
        var updated: SyncReport.Counts
        var deleted: SyncReport.Counts
        var conflicts: [SyncReport.Conflict]
        var errors: [ReportedError]
        var pending: SyncReport.Counts
        var skipped: [String]
        /// An account pair: calendars or folders made (a dry run: that would be made).
        var notes: [String]
        var dryRun: Bool
        /// An account pair: each collection's report, by folder name.
        var collections: [String: SyncReport]?
        /// A dry run: the plan item by item, the files it would stop on, UIDs held twice.
        var items: [PendingItem]?
        var broken: [BrokenFile]?
        var duplicates: [DuplicateUID]?

        init(pair: String, report: SyncReport) {
            self.pair = pair
            created = report.created; updated = report.updated; deleted = report.deleted
            conflicts = report.conflicts; errors = report.errors; pending = report.pending
            skipped = report.skipped; notes = report.notes; dryRun = report.dryRun
            collections = report.collections
            items = report.items; broken = report.broken; duplicates = report.duplicates
        }
    }

    func runAll() async throws {
        let pairs = try global.loadConfig().select(pair: global.pair, all: global.all)
        var outputs: [PairOutput] = []
        var worst = ExitStatus.success
        // A dry run writes nothing: a signal may end it where it is.
        if !run.dryRun { StopSignals.install() }
        for pair in pairs {
            // Asked to stop: the pairs not begun are left for the next run.
            if StopSignals.requested != nil { break }
            let (report, status) = await runPair(pair)
            worst = .worse(worst, status)
            outputs.append(PairOutput(pair: pair.name, report: report))
            if !output.json { render(pair: pair.name, report: report, showName: pairs.count > 1) }
        }
        if output.json {
            if global.all { try Terminal.printJSON(outputs) } else if let only = outputs.first { try Terminal.printJSON(only) }
        }
        StopSignals.endIfRequested()
        if worst != .success { throw ExitWithStatus(status: worst) }
    }

    /// Runs one pair through the library; failures become the report's errors and an exit status.
    func runPair(_ configuration: PairConfiguration) async -> (SyncReport, ExitStatus) {
        var report = SyncReport()
        report.dryRun = run.dryRun
        let bars = ProgressBars(label: progressLabel(configuration), output: output)
        defer { bars.finish() }
        do {
            let pair = try configuration.pair
            var options = run.options(direction)
            if !pair.isAccount && (options.conflict ?? pair.conflict) == .ask && isatty(0) == 1 && isatty(2) == 1 {
                options.prompt = ConflictPrompt.ask
            } else {
                // No bar while questions may be asked on the same terminal.
                options.progress = bars.make
            }
            let outcome = try await PairRun(pair: pair, options: options).run()
            report = outcome.report
            for line in report.notes where !output.quiet && !output.json { Terminal.out("\(pair.name): \(line)") }
            for line in report.skipped where !output.quiet { Terminal.err("warning: \(pair.name): \(line)") }
            for line in ErrorGroup.lines(report.errors) {
                Terminal.reportError("\(pair.name): \(line.message)", hint: line.hint)
            }
            if let failure = report.errors.failureKind { return (report, ExitStatus(failure)) }
            if report.unresolvedConflicts > 0 {
                // Asked and skipped on this terminal, or never asked (no terminal): say what helps.
                let asked = options.prompt != nil
                Terminal.reportError("\(pair.name): \(report.unresolvedConflicts) conflict(s) left unresolved",
                                     hint: asked ? "run the sync again to answer them, or choose a strategy: --conflict newest"
                                         : "run on a terminal with --conflict ask, or choose a strategy: --conflict newest")
                return (report, .unresolvedConflicts)
            }
            let leftForSync = report.conflicts.filter { $0.resolution == .pending }.count
            if leftForSync > 0 && !run.dryRun {
                Terminal.reportError("\(pair.name): \(leftForSync) conflict(s) left pending: items changed on both sides",
                                     hint: "run calgw sync to resolve \(leftForSync == 1 ? "it" : "them") by the pair's conflict strategy")
                return (report, .unresolvedConflicts)
            }
            return (report, .success)
        } catch let stop as RunStopped {
            // Said once, by StopSignals, as the process ends.
            report.addError("stopped by \(stop.reason) at a safe point")
            return (report, .failure)
        } catch {
            let description = ErrorDescription(error)
            report.addError(description.line)
            description.report(pair: configuration.name, verbose: output.verbose)
            return (report, description.status)
        }
    }

    /// What the progress bar says it does: `pull`, `push` or `sync`, and the pair with `--all`.
    func progressLabel(_ pair: PairConfiguration) -> String {
        let verb = switch direction {
        case .pull: "pull"
        case .push: "push"
        default: "sync"
        }
        return global.all ? "\(verb) \(pair.name)" : verb
    }

    func render(pair: String, report: SyncReport, showName: Bool) {
        guard !output.quiet else { return }
        Terminal.out((showName ? "\(pair): " : "") + report.summary)
        if let items = report.items {
            // A dry run: the plan, one line per item, as `status` shows it.
            for item in items where item.action != .conflict { Terminal.out("  \(item.side?.rawValue ?? ""): " + StatusLine.item(item)) }
        }
        for c in report.conflicts { Terminal.out("  conflict \(c.uid): \(c.resolution.rawValue)") }
    }
}

/// `ask` on a terminal: shows how the two versions differ and reads a choice from stdin.
enum ConflictPrompt {
    @Sendable static func ask(_ question: ConflictQuestion) -> ConflictStrategy? {
        let local = lines(question.local), remote = lines(question.remote)
        let remoteSet = Set(remote), localSet = Set(local)
        Terminal.err("conflict on \(question.key.value): both sides changed")
        for line in local where !remoteSet.contains(line) { Terminal.err("  local  - \(line)") }
        for line in remote where !localSet.contains(line) { Terminal.err("  remote + \(line)") }
        while true {
            FileHandle.standardError.write(Data("keep [l]ocal, [r]emote, [m]erge, [b]oth, or [s]kip? ".utf8))
            guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
            switch answer {
            case "l", "local": return .localWins
            case "r", "remote": return .remoteWins
            case "m", "merge": return .merge
            case "b", "both": return .keepBoth
            case "s", "skip", "": return nil
            default: continue
            }
        }
    }

    static func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
            .components(separatedBy: "\r\n").filter { !$0.isEmpty && !$0.hasPrefix("DTSTAMP") && !$0.hasPrefix("PRODID") }
    }
}

/// Crash testing: `CALGW_TEST_KILL_AFTER=k` sends the process a signal right after the k-th
/// side effect of a run, so tests can check that the next run finishes the work: SIGKILL, or
/// the one `CALGW_TEST_SIGNAL` names (`INT`, `TERM`; sent once, the run then stops at its next
/// safe point). Compiled into debug builds only (the ones the tests run): a release binary
/// ignores the variables.
enum TestFaultHook {
    static func fromEnvironment() -> FaultHook? {
        #if DEBUG
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["CALGW_TEST_KILL_AFTER"], let k = Int(text), k > 0 else { return nil }
        let sig = switch environment["CALGW_TEST_SIGNAL"] {
        case "INT": SIGINT
        case "TERM": SIGTERM
        default: SIGKILL
        }
        // Each calendar of an account counts its own side effects: the signal is sent once.
        let sent = Mutex(false)
        return { @Sendable n in
            guard n == k || (sig == SIGKILL && n > k) else { return }
            guard sig == SIGKILL || sent.withLock({ done in defer { done = true }; return !done }) else { return }
            kill(getpid(), sig)
            // The signal is handled by whichever thread does not block it, maybe a little
            // later: the run goes on once it has been (as it would under a real Ctrl-C).
            for _ in 0..<2000 where StopSignals.requested == nil { usleep(1000) }
        }
        #else
        return nil
        #endif
    }
}
