import ArgumentParser
import CalendarSync

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
