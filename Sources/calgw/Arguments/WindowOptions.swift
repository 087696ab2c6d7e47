import ArgumentParser

/// The window options of `list` and `expand`: which occurrences are printed (those overlapping
/// `[--from, --to)`), in which zone, and whether cancelled ones are shown.
struct WindowOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Start of the window.", valueName: "date"))
    var from: String

    @Option(help: ArgumentHelp("End of the window (exclusive).", valueName: "date"))
    var to: String

    @Flag(help: "Show cancelled occurrences (overrides with STATUS:CANCELLED) instead of hiding them.")
    var includeCancelled = false

    @Option(
        help: ArgumentHelp(
            "Zone for local dates, floating times and the table (default: the system zone).", valueName: "zone"))
    var tz: String?

    /// The window, checked (`--from` before `--to`) and resolved in `--tz`.
    /// - Throws: `CLIError` (usage) for a date that does not parse, an unknown zone or an empty window.
    func resolved() throws -> Window { try Window(from: from, to: to, tz: tz) }
}
