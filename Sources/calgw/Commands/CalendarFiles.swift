import CalendarSync
import Failures
import Foundation
import ICalendar

/// The .ics files a reading command (`list`, `alarms`) takes: those of `--local DIR` (a folder
/// of item files and its calendar subfolders, or one .ics file), or the local sides of the
/// pairs `--pair` / `--all` choose, as their runs see them.
struct CalendarFiles {
    /// The files of each folder or pair chosen, in the order chosen.
    var listed: [ListedFiles] = []
    /// The person's calendar addresses the pairs' servers told calgw (normalised), to show
    /// their own answers; nothing is asked here.
    var ownAddresses: Set<String> = []

    /// Every file, in the order found.
    var files: [URL] {
        listed.flatMap(\.urls)
    }

    /// The calendar (an account pair's folder name) of each file of an account pair.
    var calendars: [URL: String] {
        var calendars: [URL: String] = [:]
        for listing in listed {
            for index in 0..<listing.count {
                if let calendar = listing.calendar(of: index) {
                    calendars[listing.url(of: index)] = calendar
                }
            }
        }
        return calendars
    }

    /// The files of `--local`, else of the chosen pairs.
    /// - Parameters:
    ///   - command: the command, for the message about a pair without a vdir.
    ///   - cache: where the listing's index is kept, for a command that reads through it.
    /// - Throws: `CLIError` for a folder that does not exist, a pair's vdir not made yet, a pair
    ///   whose local side is a server; `ConfigError` for the pair selection.
    static func select(
        global: GlobalOptions, local: String?, command: String, cache: ListingCache? = nil
    ) throws -> CalendarFiles {
        var selected = CalendarFiles()
        if let local {
            selected.listed = [try ListCommand.listed(atLocal: URL(fileURLWithPath: local), cache: cache)]
            return selected
        }
        let pairs = try global.loadConfig().select(pair: global.pair, all: global.all)
        for configuration in pairs {
            let pair = try configuration.pair
            // The files the pair's runs sync, as they see them (a vdir, an account's
            // calendars, a single file), read through the pair itself.
            do {
                selected.listed.append(try PairRun(pair: pair, options: .init()).listedFiles(cache: cache))
            } catch let error as any ExplainedError where error.errorCode == "notAFolder" {
                throw CLIError(
                    "the pair's vdir \(configuration.local.path) does not exist yet",
                    hint: "run calgw pull first, or check `local` in the config")
            } catch let error as any ExplainedError where error.errorCode == "unsupported" {
                throw CLIError(
                    "pair \(pair.name) has no vdir: its local side is the server \(configuration.local.absoluteString)",
                    hint: "\(command) reads .ics files; give --local DIR, or pick a pair with a folder", status: .usage)
            }
            // The addresses calgw was told by the pair's server (cached by the `event`
            // commands and `invitations`): nothing is asked here.
            if let account = OwnAddresses.cachedAccount(of: pair) {
                selected.ownAddresses.formUnion(account.addresses.map(CalendarUser.normalized))
            }
        }
        return selected
    }
}
