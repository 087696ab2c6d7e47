import ArgumentParser
import CalendarSync

/// `calgw busy`: the busy blocks of the config's `[busy.NAME]` projections, made, changed and
/// removed in their targets' vdirs from the sources' as they are.
struct BusyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "busy",
        abstract: "Project busy time from some calendars into another ([busy.NAME] in the config).",
        discussion: """
            Each block has an event's times and recurrence and nothing else (the configured \
            title, CLASS:PRIVATE, X-CALGW-BUSY), so the other calendar shows when you are busy \
            without what you do. Declined, free and cancelled events make none; a block is never \
            projected again, so two projections both ways converge. The target pair's next sync \
            uploads the blocks (sync makes them itself, after the pairs).

            Examples:
              calgw busy                       # every projection
              calgw busy work-to-home --dry-run
              calgw busy work-to-home --remove # delete its blocks, and nothing else
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The projection (default: every one).") var name: String?
    @Flag(help: "Say what would be made, changed and removed; write nothing.") var dryRun = false
    @Flag(help: "Delete every block of the projection, and nothing else.") var remove = false

    func run() async throws {
        let config = try global.loadConfig()
        let chosen = config.busy.filter { name == nil || $0.name == name }
        if chosen.isEmpty {
            throw CLIError(
                name.map { "no projection \($0) in \(config.url.path)" } ?? "no [busy.NAME] projection in the config",
                hint: "add one: [busy.work-to-home] with from = [\"work\"] and to = \"home\"", status: .usage)
        }
        let pairs = try config.pairs.map { try $0.pair }
        let reports = try chosen.map { try BusyRun(settings: $0, pairs: pairs).run(dryRun: dryRun, remove: remove) }
        if output.json { return try Terminal.printJSON(reports) }
        for report in reports where !output.quiet {
            Terminal.out((dryRun ? "would be: " : "") + report.line)
            for path in report.unreadable { Terminal.err("warning: \(path) does not read: it makes no block") }
        }
    }
}
