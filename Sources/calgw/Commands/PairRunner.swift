import CalendarSync
import Failures
import Foundation

/// Runs `pull`, `push` or `sync` over the selected pairs and renders the reports.
struct PairRunner {
    var global: GlobalOptions
    var run: SyncRunOptions
    var output: OutputOptions
    var direction: SyncDirection
    /// `watch`: an error that stops a pair's run is said once while it repeats.
    var saidOnce: SaidOnce?

    /// A pair's report for `--json`: CLI.md's shape plus the pair's name.
    typealias PairOutput = SyncReport.PairRecord

    func runAll() async throws {
        let config = try global.loadConfig()
        let pairs = try config.select(pair: global.pair, all: global.all)
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
        if direction == .both && !run.dryRun && StopSignals.requested == nil {
            worst = .worse(worst, await project(config, synced: pairs))
        }
        if output.json {
            if global.all {
                try Terminal.printJSON(outputs)
            } else if let only = outputs.first {
                try Terminal.printJSON(only)
            }
        }
        StopSignals.endIfRequested()
        if worst != .success { throw ExitWithStatus(status: worst) }
    }

    /// `sync`: the busy projections reading or writing a pair just synced, after the pairs; a
    /// target synced in this run is synced again, so that new blocks go up now.
    func project(_ config: ConfigFile, synced: [PairConfiguration]) async -> ExitStatus {
        guard let pairs = try? config.pairs.map({ try $0.pair }) else { return .success }
        var worst = ExitStatus.success
        for projection in BusyRun.touching(config.busy, pairs: pairs, synced: Set(synced.map(\.name))) {
            do {
                let report = try projection.run()
                if !output.quiet && !output.json { Terminal.out("busy " + report.line) }
                if report.wrote, let target = synced.first(where: { $0.name == projection.targetPair }) {
                    worst = .worse(worst, await runPair(target).1)
                }
            } catch {
                Terminal.reportError("busy.\(projection.settings.name): \(error)")
                worst = .worse(worst, .failure)
            }
        }
        return worst
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
                Terminal.reportError(
                    "\(pair.name): \(report.unresolvedConflicts) conflict(s) left unresolved",
                    hint: asked
                        ? "run the sync again to answer them, or choose a strategy: --conflict newest"
                        : "run on a terminal with --conflict ask, or choose a strategy: --conflict newest")
                return (report, .unresolvedConflicts)
            }
            let leftForSync = report.conflicts.filter { $0.resolution == .pending }.count
            if leftForSync > 0 && !run.dryRun {
                Terminal.reportError(
                    "\(pair.name): \(leftForSync) conflict(s) left pending: items changed on both sides",
                    hint:
                        "run calgw sync to resolve \(leftForSync == 1 ? "it" : "them") by the pair's conflict strategy")
                return (report, .unresolvedConflicts)
            }
            saidOnce?.clear(configuration.name)
            return (report, .success)
        } catch let error as any ExplainedError where error.errorCode == "stopped" {
            // Said once, by StopSignals, as the process ends; only a signal stops a run.
            report.addError("stopped by \(StopSignals.requested.map(StopSignals.name) ?? "a signal") at a safe point")
            return (report, .failure)
        } catch {
            let description = ErrorDescription(error)
            report.addError(description.line)
            if saidOnce?.isNew(description.line, pair: configuration.name) ?? true {
                description.report(pair: configuration.name, verbose: output.verbose)
            }
            return (report, description.status)
        }
    }

    /// What the progress bar says it does: `pull`, `push` or `sync`, and the pair with `--all`.
    func progressLabel(_ pair: PairConfiguration) -> String {
        let verb =
            switch direction {
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
            for item in items where item.action != .conflict {
                Terminal.out("  \(item.side?.rawValue ?? ""): " + StatusLine.item(item))
            }
        }
        for c in report.conflicts { Terminal.out("  conflict \(c.uid): \(c.resolution.rawValue)") }
    }
}
