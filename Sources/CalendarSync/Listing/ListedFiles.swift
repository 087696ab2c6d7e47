import Foundation

/// The item files `calgw list` reads from one place, in the order it lists them, each with its
/// stamp: a vdir, an account's folder of vdirs, a folder given to `list --local`, or one .ics
/// file. The listing index (``ListingIndex``) is kept per place, its root.
///
/// Names are kept as bytes in one buffer and folders apart, so that 100,000 files cost no
/// string, and no path is made for a file the listing does not read.
public struct ListedFiles {
    /// A folder holding listed files.
    public struct Folder: Sendable, Hashable {
        /// Its path.
        public var path: String
        /// Its path below the root ("" for the root itself, else ending in "/").
        public var relative: String
        /// The calendar it holds: an account pair's collection folder; nil for a single vdir.
        public var calendar: String?

        /// The folder at `path`, `relative` below the root, holding `calendar`.
        public init(path: String, relative: String, calendar: String?) {
            self.path = path
            self.relative = relative
            self.calendar = calendar
        }
    }

    /// Where one listed file's name is, and its folder.
    struct Entry: Sendable, Hashable {
        /// Index into `folders`.
        var folder: Int32
        /// Where its name starts in `nameBytes`.
        var nameStart: Int32
        var nameLength: Int32
    }

    /// What the files are listed from: the path the index is kept for.
    public var root: String
    /// The folders the files are in.
    public var folders: [Folder]
    /// The files' names, one after another: a name is made a `String` only when asked for.
    var nameBytes: [UInt8] = []
    /// The files, in the order they are listed.
    var entries: [Entry] = []
    /// Each file as `stat` saw it while listing; nil when it could not be stat'ed as a regular
    /// file (it is then read every time, and fails as it fails).
    public private(set) var stamps: [FileStamp?] = []
    /// When the listing began, before any file was stat'ed (``FileStamp/now()``): a file
    /// changed after it has a change time at or after it.
    public var startedAt: Int64
    /// The folders whose names were read (or taken from the index), for the index to keep.
    var scanned: [ScannedFolder] = []
    /// The root's listing index, checked against the files; nil when listed without a cache.
    public internal(set) var index: ListingIndex?

    /// A listing of no files yet, of `folders` below `root`, begun at `startedAt` (now, by
    /// default: make the listing before stat'ing its files).
    public init(root: String, folders: [Folder] = [], startedAt: Int64 = FileStamp.now()) {
        self.root = root
        self.folders = folders
        self.startedAt = startedAt
    }

    /// How many files are listed.
    public var count: Int { entries.count }

    /// Adds the file `name` in the folder at index `folder`, stamped `stamp`.
    public mutating func append(folder: Int, name: String, stamp: FileStamp?) {
        var name = name
        name.withUTF8 { append(folder: folder, name: $0, stamp: stamp) }
    }

    /// Adds the file whose name is these bytes (UTF-8).
    mutating func append(folder: Int, name: UnsafeBufferPointer<UInt8>, stamp: FileStamp?) {
        entries.append(Entry(folder: Int32(folder), nameStart: Int32(nameBytes.count), nameLength: Int32(name.count)))
        nameBytes.append(contentsOf: name)
        stamps.append(stamp)
    }

    /// Adds the names of `names` that `keep` takes (by position), in their order, in the
    /// folder at index `folder`, with their `stamps`: their bytes taken over at once.
    mutating func append(
        _ names: FolderNames, folder: Int, stamps: [FileStamp?], keep: (Int) -> Bool
    ) {
        let shift = Int32(nameBytes.count)
        names.withBytes { nameBytes.append(contentsOf: $0) }
        let kept = (0..<names.count).filter(keep)
        entries.reserveCapacity(entries.count + kept.count)
        for i in kept {
            entries.append(
                Entry(
                    folder: Int32(folder), nameStart: shift + Int32(names.starts[i]),
                    nameLength: Int32(names.lengths[i])))
        }
        // Every name kept into an empty listing (a vdir's, nearly always): its stamps as they are.
        if self.stamps.isEmpty && kept.count == stamps.count {
            self.stamps = stamps
        } else {
            self.stamps += kept.map { stamps[$0] }
        }
    }

    /// The name of the file at `index`.
    public func name(of index: Int) -> String {
        let e = entries[index]
        return nameBytes.withUnsafeBufferPointer {
            String(
                decoding: UnsafeBufferPointer(rebasing: $0[Int(e.nameStart)..<Int(e.nameStart + e.nameLength)]),
                as: UTF8.self)
        }
    }

    /// The path of the file at `index`.
    public func path(of index: Int) -> String {
        let folder = folders[Int(entries[index].folder)].path
        return (folder.hasSuffix("/") ? folder : folder + "/") + name(of: index)
    }

    /// The URL of the file at `index`: a file's, said so, for Foundation would otherwise ask
    /// the file system whether it is a folder (a `stat` of each file a listing reads, one after
    /// another on one thread).
    public func url(of index: Int) -> URL { URL(fileURLWithPath: path(of: index), isDirectory: false) }

    /// Every file's URL, in listing order (for a reader of every file, as `alarms` is).
    public var urls: [URL] { (0..<count).map(url(of:)) }

    /// The calendar of the file at `index` (an account pair's collection folder), if any.
    public func calendar(of index: Int) -> String? { folders[Int(entries[index].folder)].calendar }

    /// The folder below the root of the file at `index` ("" or ending in "/"): the first part
    /// of the key the index keeps the file under, its name the second.
    func relativeFolder(of index: Int) -> String { folders[Int(entries[index].folder)].relative }

    /// Calls `body` with the bytes of the name of the file at `index`.
    func withName<T>(of index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let e = entries[index]
        return nameBytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[Int(e.nameStart)..<Int(e.nameStart + e.nameLength)]))
        }
    }

    /// The key the index keeps the file at `index` under: its path below the root, as bytes.
    func key(of index: Int) -> [UInt8] { Array(relativeFolder(of: index).utf8) + withName(of: index, Array.init) }

    /// A vdir's item files, read as a sync reads them (its item files by name, no folder looked
    /// into), with the index `cache` keeps of them.
    /// - Returns: the listing, and whether the folder could be read (no files when not).
    public static func vdir(_ path: String, cache: ListingCache?) -> (listing: ListedFiles, read: Bool) {
        var listing = ListedFiles(root: path)
        listing.openIndex(cache)
        let read = listing.addVDir(path, relative: "", calendar: nil)
        listing.checkIndex()
        return (listing, read)
    }

    /// One .ics file on its own (a single-file calendar), as its own root; no files when it does
    /// not exist.
    /// - Parameter cache: where the index is kept; nil for none.
    public static func single(_ url: URL, cache: ListingCache? = nil) -> ListedFiles {
        var listing = ListedFiles(
            root: url.path, folders: [Folder(path: url.deletingLastPathComponent().path, relative: "", calendar: nil)])
        listing.openIndex(cache)
        let stamp = FileStamp.of(path: url.path)
        if stamp != nil || FileManager.default.fileExists(atPath: url.path) {
            listing.append(folder: 0, name: url.lastPathComponent, stamp: stamp)
        }
        listing.checkIndex()
        return listing
    }

    /// Opens the root's index in `cache` (none without), before any folder is read: its
    /// names of folders serve the listing.
    mutating func openIndex(_ cache: ListingCache?) {
        index = cache.map {
            ListingIndex(root: root, cacheFolder: $0.folder, fingerprint: $0.fingerprint, kind: $0.kind)
        }
    }

    /// Matches the index, if any, with the files listed.
    func checkIndex() {
        guard let index else { return }
        var listing = self
        listing.index = nil  // the index keeps the files, not itself
        index.check(listing)
    }
}

/// Where listings keep their indexes (`$XDG_CACHE_HOME/calgw`), of which kind, and the
/// fingerprint an index must carry to be used.
public struct ListingCache: Sendable {
    /// The cache folder; the indexes go in its `list/` (or the folder of their kind).
    public var folder: URL
    /// This process's fingerprint (``ZoneDataFingerprint/current(environment:)``).
    public var fingerprint: ZoneDataFingerprint
    /// What the indexes are kept for (`list`'s by default).
    public var kind: ListingIndex.Kind

    /// A cache in `folder`, for indexes of `kind` and `fingerprint`.
    public init(folder: URL, fingerprint: ZoneDataFingerprint = .current(), kind: ListingIndex.Kind = .list) {
        self.folder = folder
        self.fingerprint = fingerprint
        self.kind = kind
    }

    /// The same cache, for indexes of `kind`.
    public func of(_ kind: ListingIndex.Kind) -> ListingCache {
        var cache = self
        cache.kind = kind
        return cache
    }
}
