import ArgumentParser
import CalendarSync

/// `calgw pull`: remote changes to the vdir only.
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Apply the server's changes to the vdir only; local changes stay pending.",
        discussion: """
            Remote creations, changes and deletions are written to the vdir (atomically); \
            what changed in the vdir since the last sync stays pending for a push. Items \
            changed on both sides are left for calgw sync.

            Exit codes: 0 done, 1 error (rerunning is safe), 2 usage or config error, \
            3 conflicts left pending for calgw sync, 4 refused for safety (mass deletion), \
            5 authentication failed.

            Examples:
              calgw pull                       # the only pair in the config
              calgw pull --pair work --dry-run # show the plan, change nothing
              calgw pull --all --json          # every pair; one JSON document
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var run: SyncRunOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await PairRunner(global: global, run: run, output: output, direction: .pull).runAll()
    }
}
