import ArgumentParser
import CalendarSync
import Foundation
import ICalendar

/// `calgw alarms [--from D --to D]`: when the alarms of a pair's vdir (or any folder of .ics
/// files) go off.
struct AlarmsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarms",
        abstract: "Print when the alarms (VALARMs) of a pair's vdir go off in a window, sorted by trigger.",
        discussion: """
            Every time an alarm goes off in [--from, --to) (by default the next 24 hours): \
            triggers before or after an event's start or end, at a time of their own, and their \
            REPEATs, on every occurrence of a recurring event (an override's alarms replace the \
            series' for its occurrence; EXDATEs remove theirs). Alarms acknowledged (RFC 9074 \
            ACKNOWLEDGED at or after the trigger) and those of cancelled events are left out. \
            Reads the files `list` reads: the pairs' local folders, or --local DIR. `calgw watch` \
            runs notify_command for them when they go off (docs/guide.md, "Reminders").

            Examples:
              calgw alarms
              calgw alarms --from 2026-03-01 --to 2026-04-01 --json
              calgw alarms --local ~/calendars/personal --tz Europe/Berlin
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Start of the window (default: now).", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("End of the window, exclusive (default: a day after --from).", valueName: "date"))
    var to: String?

    @Option(
        help: ArgumentHelp(
            "Zone for local dates, floating times and the table (default: the system zone).", valueName: "zone"))
    var tz: String?

    @Option(
        help: ArgumentHelp(
            "A folder of .ics files (or one .ics file) to read instead of a pair's vdir.", valueName: "dir"),
        completion: .directory)
    var local: String?

    func run() throws {
        let zone = try DateArgument.zone(named: tz)
        let start =
            try from.map { try DateArgument.parse($0, option: "--from").instant(in: zone) }
            ?? Int64(Date().timeIntervalSince1970)
        let end = try to.map { try DateArgument.parse($0, option: "--to").instant(in: zone) } ?? start + 86_400
        guard start < end else {
            throw CLIError("--from must be before --to", hint: "the window is [--from, --to)", status: .usage)
        }
        let cache = ConfigPaths().listIndexFolder.map { ListingCache(folder: $0, kind: .alarms) }
        let selected = try CalendarFiles.select(global: global, local: local, command: "alarms", cache: cache)
        let listing = AlarmListing(listed: selected.listed, from: start, to: end, zone: zone)
        for p in listing.problems { Terminal.reportError("\(p.file): \(p.message)") }
        if output.verbose {
            for note in listing.indexNotes + ["\(listing.entries.count) alarms"] { Terminal.err(note) }
        }
        if output.json {
            try Terminal.printJSON(listing.records())
        } else if !output.quiet {
            for line in listing.table(zone: zone) { Terminal.out(line) }
        }
        if !listing.problems.isEmpty { throw ExitWithStatus(status: .failure) }
    }
}
