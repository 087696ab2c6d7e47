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
        let said = try listing.said(json: output.json, quiet: output.quiet, zone: zone)
        try print(said, notes: listing.indexNotes, output: output)
    }

    /// Prints what a listing said (or what its memo kept), with `notes` on what it read for `-v`.
    func print(_ said: ListingMemo.Said, notes: [String], output: OutputOptions) throws {
        for p in said.problems { Terminal.reportError("\(p.file): \(p.message)") }
        if !output.quiet { for w in said.warnings { Terminal.err("warning: \(w.file): \(w.message)") } }
        if output.verbose {
            for note in notes { Terminal.err(note) }
            Terminal.err("\(said.occurrences) occurrences")
        }
        if !said.output.isEmpty { FileHandle.standardOutput.write(Data(said.output)) }
        if !said.problems.isEmpty { throw ExitWithStatus(status: .failure) }
    }
}
