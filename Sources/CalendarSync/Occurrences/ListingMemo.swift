import Crypto
import Foundation
import ICalendar

/// What a listing printed, kept in the cache folder so that the same listing of files that
/// have not changed is printed again without reading them: a status bar or a script asking
/// for the same day or month every minute, over a vdir of 100,000 files, reads the 2,000 whose
/// series reach that month, parses and expands them each time, for the same table.
///
/// A memo is kept per request (the window, the zone, what is printed, the person's addresses,
/// the roots and their calendars), and says under which indexes it was made: the header of
/// each root's listing index (``ListingIndex/identity``) as the listing left it, which the
/// listing rewrote if it read a file new or changed since the index was written. It is
/// recalled only when every root's index is the same, every listed file is fresh in it (the
/// same name and stamp as when it was last read, and not within the racy margin) and every
/// file it holds is listed (none removed). That is the very test by which the index passes
/// over a file without reading it, so a memo shows
/// what a listing that reads every file shows (`ListIndexConsistencyTests` compares them
/// after random changes). A memo that is torn, of another format, or fails its checksum is
/// not recalled; at most ``kept`` memos are kept, the newest.
public struct ListingMemo {
    /// What a listing said: its problems and warnings (file and message), how many
    /// occurrences it found, and the bytes it printed on stdout.
    public struct Said: Equatable, Sendable {
        public var problems: [Report]
        public var warnings: [Report]
        public var occurrences: Int
        public var output: [UInt8]

        public init(problems: [Report], warnings: [Report], occurrences: Int, output: [UInt8]) {
            (self.problems, self.warnings, self.occurrences, self.output) = (problems, warnings, occurrences, output)
        }
    }

    /// A file and what is said of it.
    public struct Report: Equatable, Sendable {
        public var file: String
        public var message: String

        public init(file: String, message: String) { (self.file, self.message) = (file, message) }
    }

    /// How many memos are kept (one per request).
    static let kept = 8
    /// The most a memo keeps of a listing's output: a larger one is not kept.
    static let largest = 32 << 20
    static let magic = Array("CALGWMEM".utf8)
    static let formatVersion: UInt32 = 1

    /// The memo's file.
    public let file: URL
    /// The digest of the request.
    let request: [UInt8]
    /// The files listed, each root with its index.
    let listed: [ListedFiles]
    /// Each root's ``ListingIndex/identity`` before the listing.
    let identities: [[UInt8]?]

    /// The memo of a listing of `files` over [from, to) in `zone`, printed as JSON or as a
    /// table (nothing with `quiet`): kept in `cacheFolder`'s `memo/`.
    public init(
        cacheFolder: URL, files: CalendarFiles, from: Int64, to: Int64, zone: any ZoneRules, includeCancelled: Bool,
        json: Bool, quiet: Bool
    ) {
        var text = "list \(from) \(to) \(zone.identifier) cancelled \(includeCancelled) json \(json) quiet \(quiet)"
        text += " own \(files.ownAddresses.sorted())"
        listed = files.listed
        identities = listed.map { $0.index?.identity }
        for files in listed {
            text += "\nroot \(files.root)"
            for folder in files.folders { text += "\nfolder \(folder.relative) \(folder.calendar ?? "-")" }
        }
        self.request = Array(SHA256.hash(data: Data(text.utf8)))
        file = cacheFolder.appendingPathComponent("memo", isDirectory: true)
            .appendingPathComponent(ContentHash.hex(self.request).prefix(32) + ".memo")
    }

    /// The digest of the indexes `listed` were matched with, when every file is fresh in
    /// them and every file they hold is listed; nil when a root has no index, or a file is
    /// new, changed, to be read again or gone.
    /// - Parameter rewritten: whether a root whose index the listing rewrote counts as fresh
    ///   (after a listing: it recorded what it read).
    func indexes(rewritten: Bool = false) -> [UInt8]? {
        var hasher = SHA256()
        for (files, before) in zip(listed, identities) {
            guard let index = files.index, let identity = index.identity else { return nil }
            let fresh = index.freshCount == files.count && index.storedCount == files.count && index.discarded == nil
            guard fresh || (rewritten && identity != before) else { return nil }
            hasher.update(data: identity)
        }
        return Array(hasher.finalize())
    }

    /// What `-v` says of a listing printed from its memo.
    public var recalled: String { "no file changed: printed as kept in \(file.path)" }

    /// What the same listing said the last time, when nothing it read has changed since.
    public func recall() -> Said? {
        guard let indexes = indexes(),
            let bytes = WholeFile.read(file.path)
        else { return nil }
        return Self.decode(bytes, request: request, indexes: indexes)
    }

    /// Keeps what the listing said, under the indexes it left (so, after the listing), when the
    /// next listing may recall it: every file was fresh, or recorded in an index rewritten.
    /// A failure is not reported (the next listing reads the files).
    public func keep(_ said: Said) {
        guard said.output.count <= Self.largest, let indexes = indexes(rewritten: true) else { return }
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp").path
        let bytes = Self.encode(said, request: request, indexes: indexes)
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        else { return }
        if rename(temporary, file.path) != 0 { unlink(temporary) }
        Self.prune(folder, keeping: file.lastPathComponent)
    }

    /// Removes the oldest memos beyond ``kept``, never `current`.
    static func prune(_ folder: URL, keeping current: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let memos = names.filter { $0.hasSuffix(".memo") }
        guard memos.count > kept else { return }
        let byAge = memos.map { name -> (String, Int64) in
            let stamp = FileStamp.of(path: folder.appendingPathComponent(name).path)
            return (name, stamp?.modified ?? 0)
        }.sorted { $0.1 > $1.1 }
        for (name, _) in byAge.dropFirst(kept) where name != current {
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}
