import ArgumentParser
import CalendarSync
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

    @Option(help: ArgumentHelp("Start of the window.", valueName: "date"))
    var from: String

    @Option(help: ArgumentHelp("End of the window (exclusive).", valueName: "date"))
    var to: String

    @Flag(help: "Show cancelled occurrences (overrides with STATUS:CANCELLED) instead of hiding them.")
    var includeCancelled = false

    @Option(help: ArgumentHelp("Zone for local dates, floating times and the table (default: the system zone).", valueName: "zone"))
    var tz: String?

    @Option(help: ArgumentHelp("A folder of .ics files (or one .ics file) to list instead of a pair's vdir.", valueName: "dir"),
            completion: .directory)
    var local: String?

    func run() throws {
        let window = try Window(from: from, to: to, tz: tz)
        // Each folder, and whether its subfolders are an account's calendars.
        var folders: [(url: URL, account: Bool)] = []
        var files: [URL] = []
        var own: Set<String> = []
        if let local {
            let url = URL(fileURLWithPath: local)
            var isFolder: ObjCBool = false
            if url.pathExtension.lowercased() == "ics", FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files = [url]  // a single-file calendar
            } else {
                folders = [(url, false)]
            }
        } else {
            let pairs = try global.loadConfig().select(pair: global.pair, all: global.all)
            // The addresses calgw was told by each pair's server (cached by the `event`
            // commands and `invitations`): nothing is asked here.
            for pair in pairs {
                guard let runnable = try? pair.pair, let account = OwnAddresses.cachedAccount(of: runnable) else { continue }
                own.formUnion(account.addresses.map { CalendarUser(Property(name: "ATTENDEE", value: $0)).normalizedAddress })
            }
            if let server = pairs.first(where: \.localIsServer) {
                throw CLIError("pair \(server.name) has no vdir: its local side is the server \(server.local.absoluteString)",
                               hint: "list reads .ics files; give --local DIR, or pick a pair with a folder", status: .usage)
            }
            // A single-file pair's events are its file's (none before its first sync).
            let singleFiles = pairs.filter(\.localIsSingleFile)
            files += singleFiles.map { URL(fileURLWithPath: $0.local.path) }.filter { FileManager.default.fileExists(atPath: $0.path) }
            folders = pairs.filter { !$0.localIsSingleFile }.map { ($0.local, $0.collections != .single) }
        }
        var calendars: [URL: String] = [:]
        for folder in folders {
            var isDir: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folder.url.path, isDirectory: &isDir)
            guard exists, isDir.boolValue else {
                if local != nil {
                    throw CLIError(exists ? "\(folder.url.path) is not a folder" : "no such folder: \(folder.url.path)",
                                   hint: "give --local a vdir (a folder of .ics files) or one .ics file")
                }
                throw CLIError(exists ? "\(folder.url.path) is not a folder" : "the pair's vdir \(folder.url.path) does not exist yet",
                               hint: exists ? "check `local` in the config" : "run calgw pull first, or check `local` in the config")
            }
            let found = Self.icsFiles(in: folder.url)
            if folder.account {
                for file in found where file.deletingLastPathComponent().standardizedFileURL != folder.url.standardizedFileURL {
                    calendars[file] = file.deletingLastPathComponent().lastPathComponent
                }
            }
            files += found
        }
        var listing = OccurrenceListing(files: files, from: window.from, to: window.to, zone: window.zone, hrefs: true,
                                        includeCancelled: includeCancelled, calendars: calendars)
        listing.ownAddresses = own
        try window.print(listing, output: output)
    }

    /// The .ics files of a vdir and of its immediate subfolders (one vdir per collection).
    static func icsFiles(in folder: URL) -> [URL] {
        let fm = FileManager.default
        var result: [URL] = []
        let items = (try? fm.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        for item in items.sorted(by: { $0.path < $1.path }) where !item.lastPathComponent.hasPrefix(".") {
            if item.pathExtension.lowercased() == "ics" {
                result.append(item)
            } else if (try? item.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                let inner = (try? fm.contentsOfDirectory(at: item, includingPropertiesForKeys: nil)) ?? []
                result += inner.filter { $0.pathExtension.lowercased() == "ics" }.sorted { $0.path < $1.path }
            }
        }
        return result
    }
}
