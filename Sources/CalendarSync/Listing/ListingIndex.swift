import Crypto
import Foundation

/// What `calgw list` knows of the files of one root without reading them: for each file, its
/// stamp when it was last read (``FileStamp``) and where its occurrences can be (spans of
/// instants, as `Recurrence`'s `OccurrenceReach` gives them). A file whose stamp is the same
/// now and whose spans miss the window is passed over; every other file is read and expanded
/// as without an index, so a listing always shows what a full expansion of the files shows.
///
/// The index is a cache, one file per root in the cache folder (`$XDG_CACHE_HOME/calgw/list/`),
/// mapped whole at the start of a listing (``IndexBytes``) and written again (a temporary file
/// renamed over it) when what it would hold differs enough to be worth the cost
/// (``worthWriting``): files added or removed, or enough files read for being new or changed.
/// One that is missing, cannot be read, fails its checksum, or was written by another format,
/// build or time-zone data (``ZoneDataFingerprint``) is started again from nothing, silently;
/// one that cannot be written is not. The format: a header (magic, format version,
/// fingerprint, root, entry count, payload length and checksum), then per folder listed its
/// key, stamp and names (``ScannedFolder``), then per file its key (path below the root),
/// stamp, flags and spans, in listing order, little-endian.
///
/// A run reads an entry only when it is *fresh*: same key, same stamp, and not marked to be
/// read again. An entry is marked so when its file changed within ``FileStamp/racyMargin`` of
/// the run that wrote it, as git does for a "racily clean" index entry: a write in the same
/// clock tick as the read could leave every number of the stamp as it was. A folder's names
/// are taken from the index, instead of read again, on the same terms: the folder's stamp
/// (adding, removing or renaming a file in it changes its times; another folder in its place
/// has another inode) is the same, and was not taken within the racy margin.
public final class ListingIndex {
    /// The format written; an index of another is started again.
    public static let formatVersion: UInt32 = 6
    static let magic = Array("CALGWLIX".utf8)

    /// Flags of an entry.
    struct Flags: OptionSet {
        let rawValue: UInt8
        /// Read next time whatever the window: the file changed too close to the run that read it.
        static let racy = Flags(rawValue: 1)
        /// Read every time: a file that could not be read, was reported on, or whose
        /// occurrences cannot be bounded.
        static let always = Flags(rawValue: 2)
        /// Facts of the file follow the spans (``withFacts(of:_:)``): a length, then the bytes.
        static let facts = Flags(rawValue: 4)
    }

    /// The root the index is kept for.
    public let root: String
    /// The files listed, once ``check(_:)`` has matched them.
    public private(set) var listing: ListedFiles
    /// Where the index is kept; nil for none (a run without a cache folder).
    public let file: URL?
    let fingerprint: ZoneDataFingerprint
    /// The stored index, as read. Read once for each listed file (``canPassOver(_:from:to:)``,
    /// ``withFacts(of:_:)``), and never written while read: not checked for overlapping access at
    /// run time (`@exclusivity(unchecked)`), as ``fresh`` is not.
    @exclusivity(unchecked) var buffer: IndexBytes = .empty
    /// Where its file entries are in `buffer`.
    var payload: Range<Int> = 0..<0
    /// How many file entries it holds.
    var storedCount = 0
    /// Whether an index was read and used (not missing, nor started again).
    var hadIndex = false
    /// Its folders' names, by key (``ScannedFolder/key``).
    var storedFolders: [String: ScannedFolder] = [:]
    /// For each listed file, where its fresh entry starts in `buffer`, or -1.
    @exclusivity(unchecked) var fresh: [Int] = []
    /// Whether the listed files matched the stored entries one by one, in the order stored.
    var storedInOrder = false
    /// The new index being written while files are read (``EntryStream``): nil until writing
    /// it is worth its cost (``worthWriting``).
    var stream: EntryStream?
    /// Entries recorded while writing the index was not yet worth its cost, in listing order:
    /// written first once it is, dropped when the run ends without it.
    var deferred: [(index: Int, entry: [UInt8])] = []
    /// How many of `deferred` the next run would be spared reading (those not racy).
    var deferredGain = 0
    /// Why the stored index was not used (nil when it was, or when there was none).
    public internal(set) var discarded: String?
    /// How many listed files the stored index held, unchanged.
    public internal(set) var freshCount = 0
    /// The header of the index file as this process last knew it, read or written by it: its
    /// fingerprint, root, entry count, length and checksum; nil when it has none. An index
    /// rewritten with other contents has another (``ListingMemo`` keys what a listing printed
    /// with it).
    public internal(set) var identity: [UInt8]?

    /// The index of `root` kept in `cacheFolder`, read (nil: none kept); its names of folders
    /// serve the listing that follows, which ``check(_:)`` then matches with its entries.
    /// - Parameter fingerprint: this process's; an index written under another is started again.
    /// - Parameter kind: what the index is for; each kind is kept apart.
    public init(
        root: String, cacheFolder: URL?, fingerprint: ZoneDataFingerprint = .current(), kind: Kind = .list
    ) {
        self.root = root
        listing = ListedFiles(root: root)
        self.fingerprint = fingerprint
        file = cacheFolder.map { Self.location(of: root, in: $0, kind: kind) }
        guard let file, let data = IndexBytes(mapping: file.path) else { return }
        do {
            try load(data)
            hadIndex = true
        } catch {
            forget(error)
        }
    }

    /// A new index left unfinished (a reader that stopped on an error) is removed.
    deinit { discardStream() }

    /// The index of `listing`'s root kept in `cacheFolder`, checked against the listing's files.
    public convenience init(listing: ListedFiles, cacheFolder: URL?, fingerprint: ZoneDataFingerprint = .current()) {
        self.init(root: listing.root, cacheFolder: cacheFolder, fingerprint: fingerprint)
        check(listing)
    }

    /// Pairs each of `listing`'s files with its stored entry, keeping those that are fresh.
    public func check(_ listing: ListedFiles) {
        discardStream()
        self.listing = listing
        fresh = []
        freshCount = 0
        do {
            try match()
        } catch {
            forget(error)
            fresh = Array(repeating: -1, count: listing.count)
        }
    }

    /// Starts again from nothing, saying why.
    func forget(_ error: any Error) {
        discarded = "\(error)"
        discardStream()
        buffer = .empty
        payload = 0..<0
        storedCount = 0
        storedFolders = [:]
        freshCount = 0
        storedInOrder = false
        hadIndex = false
        identity = nil
    }

    /// The names a listing found in the folder `key` when it had `stamp`, if the index holds
    /// them and may vouch for them (the stamp the same, not taken within the racy margin).
    func folderNames(key: String, stamp: FileStamp) -> FolderNames? {
        guard let stored = storedFolders[key], stored.stamp == stamp, !stored.isRacy else { return nil }
        return stored.names
    }

    /// The names a listing found in the folder `key`, whatever its stamp: what a listing that
    /// reads the folder again compares its names with.
    func storedNames(key: String) -> FolderNames? { storedFolders[key]?.names }

    /// `root`'s index file of `kind` in the cache folder: a digest of the path names it, in
    /// the kind's folder.
    static func location(of root: String, in cacheFolder: URL, kind: Kind = .list) -> URL {
        var root = root
        let digest = ContentHash.hex(root.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }).prefix(32)
        return cacheFolder.appendingPathComponent(kind.folder, isDirectory: true).appendingPathComponent(
            digest + ".index")
    }

    /// Whether the file at `index` of the listing is known and unchanged since it was last read.
    public func isFresh(_ index: Int) -> Bool { fresh[index] >= 0 }

    /// Whether the file at `index` can be passed over for the window [from, to): fresh, not
    /// to be read every time, and with no span touching the window.
    public func canPassOver(_ index: Int, from: Int64, to: Int64) -> Bool {
        let start = fresh[index]
        guard start >= 0 else { return false }
        return buffer.withUnsafeBytes { bytes in
            // Read when matched: within the buffer.
            let entry = Self.entry(at: start, in: bytes)!
            if entry.flags.contains(.always) { return false }
            for s in 0..<entry.spanCount {
                let at = entry.spans + s * 16
                let low = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: Int64.self))
                let high = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: Int64.self))
                if low < to && high >= from { return false }
            }
            return true
        }
    }

    /// Records what reading the file at `index` found: where its occurrences can be, or nil
    /// when it must be read every time, and the facts an index of another kind keeps of it
    /// (``withFacts(of:_:)``). Stamped with the stamp the listing saw before reading.
    ///
    /// The entry goes into the new index file after the stored entries of the files before it
    /// that are kept (``EntryStream``), at once when the index is being written, else when
    /// writing it becomes worth its cost (``worthWriting``): files are recorded in listing
    /// order, each once, as every reader reads them. Nothing is kept without a cache folder.
    public func record(_ index: Int, spans: [ClosedRange<Int64>]?, facts: [UInt8] = []) {
        guard file != nil, let stamp = listing.stamps[index] else { return }
        var flags: Flags = spans == nil ? .always : []
        if stamp.isRacy(runStart: listing.startedAt) { flags.insert(.racy) }
        if !facts.isEmpty { flags.insert(.facts) }
        var entry: [UInt8] = []
        Self.appendEntry(
            key: listing.key(of: index), stamp: stamp, flags: flags, spans: spans ?? [], facts: facts, to: &entry)
        guard stream == nil else { return streamEntry(entry, of: index) }
        deferred.append((index, entry))
        if !flags.contains(.racy) { deferredGain += 1 }
        if worthWriting || deferred.count >= Self.deferredLimit { streamDeferred() }
    }

    /// Writes the index when it changed and the change is worth writing (``worthWriting``):
    /// files read for being new or changed, files gone, folders' names read. A failure is not
    /// reported: the next listing reads what this one could not keep.
    public func save() {
        guard let file else { return }
        if stream == nil, !deferred.isEmpty, worthWriting { streamDeferred() }
        deferred = []
        deferredGain = 0
        if stream != nil {
            finishStream()
            return
        }
        guard needsWriting, let temporary = temporaryFile() else { return }
        guard let header = write(to: temporary) else { return }
        if rename(temporary, file.path) == 0 { identity = header } else { unlink(temporary) }
    }

    /// A new path beside the index file for the index to be written to, its folder made
    /// first; nil without a cache folder.
    func temporaryFile() -> String? {
        guard let file else { return nil }
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder.appendingPathComponent(
            ".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        ).path
    }

    /// Saves the index and says, for `-v`, what it spared: how many of the `total` files under
    /// `root` were passed over (`read` of them were read), and how many were new or changed.
    public func saveAndDescribe(root: String, total: Int, read: Int) -> String {
        save()
        var note = "\(root): \(total - read) of \(total) files"
        note += " passed over by the index, \(total - freshCount) new or changed"
        if let discarded { note += " (index started again: \(discarded))" }
        return note
    }

    /// Whether the index is to be written: it is being written, or what it would hold differs
    /// from the stored one enough to be worth writing (``worthWriting``).
    var needsWriting: Bool { stream != nil || worthWriting }
}
