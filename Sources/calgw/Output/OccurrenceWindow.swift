import CalendarSync
import Foundation
import ICalendar

/// The `--from`, `--to` and `--tz` of `expand` and `list`, checked and resolved.
struct Window {
    var from: Int64
    var to: Int64
    var zone: any ZoneRules

    init(from: String, to: String, tz: String?) throws {
        zone = try DateArgument.zone(named: tz)
        self.from = try DateArgument.parse(from, option: "--from").instant(in: zone)
        self.to = try DateArgument.parse(to, option: "--to").instant(in: zone)
        guard self.from < self.to else {
            throw CLIError("--from must be before --to", hint: "the window is [--from, --to)", status: .usage)
        }
    }

    func print(_ listing: OccurrenceListing, output: OutputOptions) throws {
        for p in listing.problems { Terminal.reportError("\(p.file): \(p.message)") }
        if !output.quiet { for w in listing.warnings { Terminal.err("warning: \(w.file): \(w.message)") } }
        if output.verbose {
            for note in listing.indexNotes { Terminal.err(note) }
            Terminal.err("\(listing.entries.count) occurrences")
        }
        if output.json {
            try Terminal.printJSON(listing.records())
        } else if !output.quiet {
            let lines = listing.table(zone: zone)
            if !lines.isEmpty { Terminal.out(lines.joined(separator: "\n")) }
        }
        if !listing.problems.isEmpty { throw ExitWithStatus(status: .failure) }
    }
}
