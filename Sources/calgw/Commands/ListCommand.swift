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
        let selected = try CalendarFiles.select(global: global, local: local, command: "list")
        var listing = OccurrenceListing(
            files: selected.files, from: resolved.from, to: resolved.to, zone: resolved.zone, hrefs: true,
            includeCancelled: window.includeCancelled, calendars: selected.calendars)
        listing.ownAddresses = selected.ownAddresses
        try resolved.print(listing, output: output)
    }

    /// What `--local` names: one .ics file, or a folder whose item files (and its
    /// subfolders', one vdir per calendar) are listed.
    static func files(atLocal url: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        if url.pathExtension.lowercased() == "ics", exists, !isFolder.boolValue { return [url] }  // a single-file calendar
        guard exists, isFolder.boolValue else {
            throw CLIError(
                exists ? "\(url.path) is not a folder" : "no such folder: \(url.path)",
                hint: "give --local a vdir (a folder of .ics files) or one .ics file")
        }
        return icsFiles(in: url)
    }

    /// The item files of a vdir and of its immediate subfolders (one vdir per collection),
    /// as ``ItemFileName`` tells them.
    static func icsFiles(in folder: URL) -> [URL] {
        let fm = FileManager.default
        var result: [URL] = []
        let items = (try? fm.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        for item in items.sorted(by: { $0.path < $1.path }) where !item.lastPathComponent.hasPrefix(".") {
            if (try? item.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                let inner = (try? fm.contentsOfDirectory(at: item, includingPropertiesForKeys: nil)) ?? []
                result += inner.filter { ItemFileName.isItem($0.lastPathComponent) }.sorted { $0.path < $1.path }
            } else if ItemFileName.isItem(item.lastPathComponent) {
                result.append(item)
            }
        }
        return result
    }
}
