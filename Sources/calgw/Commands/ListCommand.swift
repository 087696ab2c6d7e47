import ArgumentParser
import CalendarSync
import Failures
import Foundation
import ICalendar
import Recurrence

/// `calgw list --from D --to D`: the occurrences in a pair's vdir (or any folder of .ics files).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the occurrences in a pair's vdir that overlap a window, sorted by start.",
        discussion: """
            Reads every .ics file of the pair's local folder (and of its collection subfolders), \
            the pair's file when its local side is a single .ics file, \
            or of --local DIR without any config. For a pair with collections (an account), \
            every calendar is listed: the table has a calendar column (the folder name) and \
            each --json row a "calendar" key.

            Examples:
              calgw list --from 2026-03-01 --to 2026-04-01
              calgw list --pair work --from 2026-03-29 --to 2026-03-30 --json
              calgw list --local ~/calendars/personal --from 2026-03-29 --to 2026-04-05
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup var window: WindowOptions

    @Option(
        help: ArgumentHelp(
            "A folder of .ics files (or one .ics file) to list instead of a pair's vdir.", valueName: "dir"),
        completion: .directory)
    var local: String?

    func run() throws {
        let resolved = try window.resolved()
        let cache = ConfigPaths().listIndexFolder.map { ListingCache(folder: $0) }
        let selected = try CalendarFiles.select(global: global, local: local, command: "list", cache: cache)
        let memo = cache.map {
            ListingMemo(
                cacheFolder: $0.folder, files: selected, from: resolved.from, to: resolved.to, zone: resolved.zone,
                includeCancelled: window.includeCancelled, json: output.json, quiet: output.quiet)
        }
        if let memo, let said = memo.recall() {
            return try resolved.print(said, notes: [memo.recalled], output: output)
        }
        var listing = OccurrenceListing(
            listed: selected.listed, from: resolved.from, to: resolved.to, zone: resolved.zone,
            includeCancelled: window.includeCancelled)
        listing.ownAddresses = selected.ownAddresses
        let said = try listing.said(json: output.json, quiet: output.quiet, zone: resolved.zone)
        memo?.keep(said)
        try resolved.print(said, notes: listing.indexNotes, output: output)
    }

    /// What `--local` names: one .ics file, or a folder whose item files (and its
    /// subfolders', one vdir per calendar) are listed (``ListedFiles/local(folder:)``).
    /// - Parameter cache: where the listing's index is kept; nil for none.
    static func listed(atLocal url: URL, cache: ListingCache? = nil) throws -> ListedFiles {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        // A single-file calendar.
        if url.pathExtension.lowercased() == "ics", exists, !isFolder.boolValue { return .single(url, cache: cache) }
        guard exists, isFolder.boolValue else {
            throw CLIError(
                exists ? "\(url.path) is not a folder" : "no such folder: \(url.path)",
                hint: "give --local a vdir (a folder of .ics files) or one .ics file")
        }
        return .local(folder: url, cache: cache)
    }
}

extension CalendarFiles {
    /// The files of `--local`, else of the pairs `--pair` / `--all` choose.
    /// - Parameters:
    ///   - command: the command, for the message about a pair without a vdir.
    ///   - cache: where the listing's index is kept, for a command that reads through it.
    /// - Throws: `CLIError` for a folder that does not exist; the library's error for a pair's
    ///   vdir not made yet or a pair whose local side is a server; `ConfigError` for the pair selection.
    static func select(
        global: GlobalOptions, local: String?, command: String, cache: ListingCache? = nil
    ) throws -> CalendarFiles {
        if let local {
            return CalendarFiles(listed: [try ListCommand.listed(atLocal: URL(fileURLWithPath: local), cache: cache)])
        }
        let pairs = try global.loadConfig().select(pair: global.pair, all: global.all).map { try $0.pair }
        return try CalendarFiles(pairs: pairs, command: command, cache: cache)
    }
}
