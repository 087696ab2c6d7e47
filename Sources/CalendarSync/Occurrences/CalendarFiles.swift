import Failures
import Foundation
import ICalendar

/// The .ics files a reading command (`list`, `alarms`) takes: those of a folder or file it was
/// given (``init(listed:)``), or the local sides of pairs, as their runs see them
/// (``init(pairs:command:cache:)``).
public struct CalendarFiles {
    /// The files of each folder or pair chosen, in the order chosen.
    public var listed: [ListedFiles] = []
    /// The person's calendar addresses the pairs' servers told calgw (normalised), to show
    /// their own answers; nothing is asked here.
    public var ownAddresses: Set<String> = []

    /// The files of listings already made (a folder given on the command line).
    public init(listed: [ListedFiles]) { self.listed = listed }

    /// Every file, in the order found.
    public var files: [URL] {
        listed.flatMap(\.urls)
    }

    /// The calendar (an account pair's folder name) of each file of an account pair.
    public var calendars: [URL: String] {
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

    /// The files of each of `pairs`' local sides (a vdir, an account's calendars, a single
    /// file), read through the pair itself, and the addresses its server told calgw (cached by
    /// the `event` commands and `invitations`).
    /// - Parameters:
    ///   - command: the command, for the message about a pair without a vdir.
    ///   - cache: where the listing's index is kept, for a command that reads through it.
    /// - Throws: an error with code `noFolderYet` for a pair's vdir not made yet, `noFiles`
    ///   (a usage error) for a pair whose local side is a server.
    public init(pairs: [Pair], command: String, cache: ListingCache? = nil) throws {
        for pair in pairs {
            do {
                listed.append(try PairRun(pair: pair, options: .init()).listedFiles(cache: cache))
            } catch let error as any ExplainedError where error.errorCode == "notAFolder" {
                throw ListingError(
                    .noFolderYet, "the pair's vdir \(pair.local.url.path) does not exist yet",
                    recovery: "run calgw pull first, or check `local` in the config")
            } catch let error as any ExplainedError where error.errorCode == "unsupported" {
                throw ListingError(
                    .noFiles,
                    "pair \(pair.name) has no vdir: its local side is the server \(pair.local.url.absoluteString)",
                    recovery: "\(command) reads .ics files; give --local DIR, or pick a pair with a folder")
            }
            // The pair's `addresses` and those its server gave: on a server that names none
            // (Radicale, Xandikos), the config's alone mark what awaits an answer.
            ownAddresses.formUnion(pair.addresses.map(CalendarUser.normalized))
            if let account = pair.cachedServerAccount {
                ownAddresses.formUnion(account.addresses.map(CalendarUser.normalized))
            }
        }
    }
}

/// Why the files of a pair cannot be listed.
enum ListingFailure: FailureCode {
    /// The pair's vdir is not made yet.
    case noFolderYet
    /// The pair's local side is a server: it holds no files to read.
    case noFiles

    /// A pair without files was chosen for a command that reads files: a usage error.
    var kind: FailureKind { self == .noFiles ? .usage : .failed }
}

/// An error of listing a pair's files.
typealias ListingError = CodedError<ListingFailure>
