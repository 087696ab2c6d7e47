import ArgumentParser
import Foundation
import ICalendar
import Recurrence

/// `calgw expand FILE... --from D --to D`: the occurrences of .ics files in a window.
struct ExpandCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expand",
        abstract: "Print the occurrences of .ics files that overlap a window, recurrences expanded.",
        discussion: """
            An occurrence is printed when [start, end) overlaps [--from, --to). Dates are \
            2026-03-29, 2026-03-29T10:00 (local, in --tz or the system zone) or RFC 3339 with \
            an offset. Floating times and all-day events are read in --tz too.

            Examples:
              calgw expand team.ics --from 2026-03-01 --to 2026-04-01
              calgw expand *.ics --from 2026-03-29 --to 2026-03-30 --tz Europe/Berlin --json
            """
    )

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Start of the window.", valueName: "date"))
    var from: String

    @Option(help: ArgumentHelp("End of the window (exclusive).", valueName: "date"))
    var to: String

    @Flag(help: "Show cancelled occurrences (overrides with STATUS:CANCELLED) instead of hiding them.")
    var includeCancelled = false

    @Option(help: ArgumentHelp("Zone for local dates, floating times and the table (default: the system zone).", valueName: "zone"))
    var tz: String?

    @Argument(help: "The .ics files.", completion: .file(extensions: ["ics"]))
    var files: [String]

    func run() throws {
        let window = try Window(from: from, to: to, tz: tz)
        let listing = OccurrenceListing(files: files.map { URL(fileURLWithPath: $0) }, from: window.from, to: window.to,
                                        zone: window.zone, hrefs: false, includeCancelled: includeCancelled)
        try window.print(listing, output: output)
    }
}
