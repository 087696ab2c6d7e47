import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// `calgw expand FILE... --from D --to D`: the occurrences of .ics files in a window.
struct ExpandCommand: ParsableCommand, ManyPathsCommand {
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

    @OptionGroup var window: WindowOptions

    @Argument(help: "The .ics files.", completion: .file(extensions: ["ics"]))
    var files: [String]

    func run() throws {
        let resolved = try window.resolved()
        let listing = OccurrenceListing(
            files: ICSPaths.splitRuns(files).map { URL(fileURLWithPath: $0) }, from: resolved.from, to: resolved.to,
            zone: resolved.zone, hrefs: false, includeCancelled: window.includeCancelled)
        try resolved.print(listing, output: output)
    }
}
