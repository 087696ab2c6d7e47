import ArgumentParser
import CalendarSync

/// `calgw pull`: remote changes to the vdir only.
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Apply the server's changes to the vdir only; local changes stay pending.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var run: SyncRunOptions
    @OptionGroup var output: OutputOptions

    func validate() throws { try run.validate() }

    func run() async throws {
        try await PairRunner(global: global, run: run, output: output, direction: .pull).runAll()
    }
}
