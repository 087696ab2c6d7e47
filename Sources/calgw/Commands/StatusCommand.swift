import ArgumentParser
import CalendarSync
import Foundation
import OAuth

/// `calgw status`: what a sync would do now, conflicts, and the last sync time.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show pending changes on each side, conflicts and the last sync time; changes nothing.",
        discussion: """
            Scans both sides as a sync would and lists what a sync would do, item by item: the \
            side it changes, the action, the event's summary and start, and its file or href; \
            conflicts with both versions' summaries and the strategy that will apply; vdir files \
            a sync would stop on (file:line: problem); UIDs held twice. Nothing is written, not \
            even the journal. On a terminal each list shows its first \(StatusCommand.shown) \
            items and a count of the rest (--all-items shows every one); --json always has all.

            When the server cannot be read (down, or refusing the credentials), the local \
            changes waiting to be sent are still shown, then the error.

            Exit codes are those the sync would end with: 0 when it would succeed (with or \
            without changes to make); 1 when it would fail on something (a vdir file that \
            does not parse, or two items with one UID: printed after everything else), or \
            when a side cannot be read; 2 usage or config error; 4 when it would refuse a \
            mass deletion; 5 authentication failed.

            Examples:
              calgw status
              calgw status --all-items
              calgw status --all --json | jq '.[].items[] | select(.side == "remote")'
            """)

    /// Items of each list shown on a terminal without --all-items.
    static let shown = 10

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Flag(help: "List every pending item on the terminal, not the first \(StatusCommand.shown) of each list.")
    var allItems = false

    @Option(help: ArgumentHelp("For a pair with collections: this calendar (its folder name) only.", valueName: "name"))
    var collection: String?

    /// `status --json` for one pair (CLI.md).
    typealias StatusOutput = PairStatus.Record

    func run() async throws {
        let pairs = try global.loadConfig().select(pair: global.pair, all: global.all)
        var statuses: [StatusOutput] = []
        var worst = ExitStatus.success
        for configuration in pairs {
            var entry = StatusOutput(pair: configuration.name)
            var failure: ErrorDescription?
            do {
                var options = PairRun.Options()
                options.collection = collection
                let status = await PairRun(pair: try configuration.pair, options: options).status()
                entry = StatusOutput(pair: configuration.name, status: status)
                failure = status.failure.map(ErrorDescription.init)
            } catch {
                entry.unreadable = CalendarSync.PairStatus.Unreadable.both.rawValue
                failure = ErrorDescription(error)
            }
            if let failure { entry.errors.insert(ReportedError(failure.message), at: 0) }
            entry.signIn = configuration.login.oauth.map(SignInState.read)
            statuses.append(entry)
            if !output.json && !output.quiet { render(entry) }
            if let failure {
                Terminal.reportError("\(configuration.name): \(failure.message)", hint: failure.hint)
                worst = .worse(worst, failure.status)
            } else {
                worst = .worse(worst, reportProblems(entry))
                if entry.massDeletion != nil { worst = .worse(worst, .refusedForSafety) }
            }
        }
        if output.json {
            if global.all {
                try Terminal.printJSON(statuses)
            } else if let only = statuses.first {
                try Terminal.printJSON(only)
            }
        }
        if worst != .success { throw ExitWithStatus(status: worst) }
    }

    /// Prints what a sync would fail on (broken vdir files, two items with one UID) as errors on
    /// stderr, after the status itself; the exit status they give (1, or 0 when there are none).
    func reportProblems(_ s: StatusOutput) -> ExitStatus {
        for line in s.errors.map({ ErrorGroup(splitting: $0.line) }) {
            Terminal.reportError("\(s.pair): \(line.message)", hint: line.hint)
        }
        return s.errors.isEmpty ? .success : .failure
    }

    func render(_ s: StatusOutput) {
        // Cut short for a person at a terminal only: a script reading the text gets every line.
        for line in s.lines(limit: allItems || !Terminal.stdoutIsTTY ? nil : Self.shown) { Terminal.out(line) }
    }
}
