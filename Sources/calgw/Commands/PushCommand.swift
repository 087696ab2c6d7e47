import ArgumentParser
import CalendarSync

/// `calgw push`: local changes to the server only.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Apply the vdir's changes to the server only; remote changes stay pending.",
        discussion: """
            Files created, changed or deleted in the vdir since the last sync are sent to the \
            server with conditional requests; what changed on the server stays pending. Items \
            changed on both sides are left for calgw sync.

            Exit codes: 0 done, 1 error (rerunning is safe), 2 usage or config error, \
            3 conflicts left pending for calgw sync, 4 refused for safety (mass deletion), \
            5 authentication failed.

            Examples:
              calgw push
              calgw push --dry-run --json | jq '.created.remote'
              calgw push --allow-mass-delete   # after emptying the vdir on purpose
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var run: SyncRunOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await PairRunner(global: global, run: run, output: output, direction: .push).runAll()
    }
}
