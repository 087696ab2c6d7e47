import Foundation
import Synchronization

/// A vdir: a folder holding one calendar object per `.ics` file, as khal, vdirsyncer and
/// todoman keep it.
///
/// Every write is atomic (temporary file, fsync, rename) and conditional on the file's
/// signature, so a file a person edited since it was listed is never overwritten. A sync run
/// writes with `.batched` durability and makes each batch durable at once. Names are
/// checked before use: nothing is ever read or written outside the folder.
public struct VDirectory: Sendable {
    /// One item file as `stat` saw it.
    public struct Entry: Hashable, Sendable {
        /// The file's name in the folder.
        public var name: String
        /// The file's signature when listed.
        public var signature: FileSignature
        /// The entry of the file `name` with `signature`.
        public init(name: String, signature: FileSignature) {
            self.name = name
            self.signature = signature
        }
    }

    /// When the writes of a `VDirectory` become durable.
    public enum Durability: Sendable {
        /// Each write is durable when it returns: the file and the folder are fsynced.
        case eachWrite
        /// Writes become durable together at `makeDurable()`, so a batch of files costs one
        /// flush of the file system instead of one fsync each. A replacement is still fsynced
        /// before its rename (a crash never tears a file that held content), but a new file is
        /// not: until `makeDurable()` returns, a power loss may leave it empty or cut short, and
        /// the caller must treat such a file as not written (the sync journal does, through the
        /// intent it recorded first). Where the file system cannot be flushed in one call
        /// (outside Linux), new files are fsynced as with `eachWrite`.
        case batched
    }

    /// New files written with `.batched` durability and not yet made durable, shared by the
    /// copies of one `VDirectory`.
    final class UnsyncedFiles: Sendable {
        /// How many, and the paths of the first `fileSyncLimit` (past that, one `syncfs`
        /// covers them all and no path is needed).
        let files = Mutex<(count: Int, paths: [String])>((0, []))

        func add(_ path: String) {
            files.withLock { files in
                files.count += 1
                if files.count <= VDirectory.fileSyncLimit { files.paths.append(path) }
            }
        }

        /// What was added since the last call.
        func take() -> (count: Int, paths: [String]) {
            files.withLock { files in
                defer { files = (0, []) }
                return files
            }
        }
    }

    /// Up to this many new files, `makeDurable()` fsyncs each (and the folder) rather than the
    /// whole file system: a small batch should not wait for other programs' writes.
    public static let fileSyncLimit = 8

    /// The folder.
    public let url: URL
    /// `url`'s path, kept to build item paths without URL arithmetic (thousands per sync).
    private let folderPath: String
    /// When writes become durable (default `.eachWrite`).
    public var durability: Durability
    let unsynced = UnsyncedFiles()

    /// The vdir at `url`; each write durable when it returns unless `durability` says otherwise.
    public init(url: URL, durability: Durability = .eachWrite) {
        self.url = url.standardizedFileURL
        let path = self.url.path
        folderPath = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        self.durability = durability
    }

    /// Makes every write done so far durable. With `.batched`: one `syncfs` of the folder's file
    /// system, or for at most `fileSyncLimit` new files an fsync of each and of the folder (only
    /// the folder where new files were fsynced as written). With `.eachWrite` they are already.
    /// - Throws: `AtomicFileError` when the file system reports a write error.
    public func makeDurable() throws {
        guard durability == .batched else { return }
        let written = unsynced.take()
        if written.count > Self.fileSyncLimit {
            try AtomicFile.syncFileSystem(holding: url)
            return
        }
        for path in written.paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }  // gone since: nothing of it to keep
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw AtomicFileError(path: path, step: "fsync", errno: errno) }
        }
        AtomicFile.syncFolder(url)
    }

    private var syncsFolderOnEachWrite: Bool { durability == .eachWrite }
    private var syncsNewFiles: Bool { durability == .eachWrite || !AtomicFile.canSyncFileSystem }

    /// Creates the folder (and its parents) when missing.
    public func createIfMissing() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Every item file with its signature, sorted by name; files are not read.
    ///
    /// The names are read first and sorted as bytes, then stat'ed relative to the open folder
    /// (no path lookup from the root per file), a large folder's on every core: at 100,000
    /// files the `stat` calls are most of what a sync with nothing to do costs. A name that is
    /// not UTF-8 is passed over: no `String` could name its file.
    /// - Throws: `VDirError.notAFolder` when the folder is missing.
    public func scan() throws -> [Entry] {
        let listing = try list()
        return (0..<listing.count).map(listing.entry(at:))
    }

    /// Every item file with its signature, sorted by name, as `scan()` finds them, held as one
    /// buffer of names and an array of signatures: a `String` is made for a name when it is
    /// asked for. At a million files, entries took 110 bytes a file, this listing about 60.
    public func list() throws -> Listing {
        guard let dir = opendir(url.path) else {
            throw VDirError(
                .notAFolder, "\(url.path) is not a folder that can be read (\(String(cString: strerror(errno))))",
                recovery: "create it, or fix `local` in the config file")
        }
        defer { closedir(dir) }
        var names = NameList()
        FolderEntries.forEach(in: dir) { name, type in
            // A folder (or other non-file) known from the entry itself is passed over unstat'ed.
            guard type == UInt8(DT_REG) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) else { return }
            if ItemFileFilter.isItem(name) { names.append(name) }
        }
        guard names.count > 0 else { return Listing(names: names, positions: [], signatures: []) }
        var positions = names.sortedPositions()
        var signatures = Self.signatures(of: names, in: positions, folder: dirfd(dir))
        // The files found whose names are UTF-8, kept in place: a copy of both arrays was the
        // peak of a million-file takeover (40 MB more, for a moment).
        var kept = 0
        for i in positions.indices where signatures[i] != .missing && names.isUTF8(at: positions[i]) {
            positions[kept] = positions[i]
            signatures[kept] = signatures[i]
            kept += 1
        }
        positions.removeLast(positions.count - kept)
        signatures.removeLast(signatures.count - kept)
        return Listing(names: names, positions: positions, signatures: signatures)
    }

    /// The item files one listing found, in name order (see `list()`).
    public struct Listing: Sendable {
        fileprivate let names: NameList
        /// Where each file's name is in `names`, in name order.
        fileprivate let positions: [Int]
        /// Each file's signature, in name order.
        public let signatures: [FileSignature]

        /// How many item files the listing found.
        public var count: Int { positions.count }

        /// The name of the file at `index` (in name order).
        public func name(at index: Int) -> String { names.name(at: positions[index])! }

        /// The file at `index` (in name order).
        public func entry(at index: Int) -> Entry { Entry(name: name(at: index), signature: signatures[index]) }
    }

    /// Below this many names a listing is stat'ed on one thread: starting others costs more.
    static let parallelStatMinimum = 4_096

    /// The signature of each of `names` at `positions`, in the open folder `folder`: `.missing`
    /// for a name that is gone or not a regular file (links are followed).
    static func signatures(of names: NameList, in positions: [Int], folder: Int32) -> [FileSignature] {
        names.withCStrings { starts, base in
            nonisolated(unsafe) let starts = starts, base = base
            return positions.mappedOnEveryCore(minimum: parallelStatMinimum) { position in
                signature(of: base + starts[position], in: folder)
            }
        }
    }

    /// The signature of the regular file `name` in the open folder `folder` (links followed),
    /// `.missing` when it is gone or not a regular file.
    private static func signature(of name: UnsafePointer<CChar>, in folder: Int32) -> FileSignature {
        var info = stat()
        guard fstatat(folder, name, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .missing }
        return FileSignature(info)
    }

    /// The order of a listing: by UTF-8 bytes (as `strcmp`), which is quicker than `String`'s
    /// Unicode-aware order and the same for the ASCII names nearly every vdir holds.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        // Native strings (as every name read from the folder) lend their bytes uncopied; a
        // generic walk of the two UTF-8 views took a quarter of a no-op's time at 100,000 files.
        let ordered = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
        return (ordered ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Reads an item file and the signature it had while being read. A file that changes
    /// while it is read is read again (up to a few times), never returned half-written.
    /// - Returns: nil when the file does not exist.
    public func read(_ name: String) throws -> (data: Data, signature: FileSignature)? {
        let p = try checkedPath(name)
        for _ in 0..<5 {
            // One open file, stat'ed before and after it is read: the path is looked up once.
            let fd = open(p, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            let before = FileSignature(info)
            guard let data = Self.readToEnd(fd, expecting: Int(info.st_size)), fstat(fd, &info) == 0 else { return nil }
            let after = FileSignature(info)
            if after == before, Int64(data.count) == after.size { return (data, after) }
        }
        throw VDirError(
            .changedMeanwhile, "\(p) keeps changing while it is read",
            recovery: "run again when it is no longer being written")
    }

    /// Everything `fd` holds from where it stands; nil on a read error.
    /// - Parameter expecting: the size to expect (a byte more is asked for, to see a file that grew).
    static func readToEnd(_ fd: Int32, expecting size: Int) -> Data? {
        var data = Data(count: max(size, 0) + 1)
        var length = 0
        while true {
            if length == data.count { data.count += max(data.count, 4096) }
            let n = data.withUnsafeMutableBytes { buffer in
                Foundation.read(fd, buffer.baseAddress! + length, buffer.count - length)
            }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            length += n
        }
        data.count = length
        return data
    }

    /// Creates a new item file; fails if the name is taken.
    /// - Returns: the new file's signature.
    /// - Throws: `VDirError` with `.alreadyExists` when a file of that name exists.
    @discardableResult
    public func create(_ name: String, data: Data) throws -> FileSignature {
        try create(name, data: data) { path, bytes in
            try AtomicFile.create(
                at: path, bytes: bytes, syncContent: syncsNewFiles, syncFolder: syncsFolderOnEachWrite)
        }
    }

    /// The folder held open, for creating many files in it (`create(_:data:in:)`).
    /// - Throws: `AtomicFileError`, with code `ENOENT` when the folder is missing.
    public func openFolder() throws -> OpenFolder { try OpenFolder(path: folderPath) }

    /// `create(_:data:)` in the folder as `openFolder()` opened it: no path looked up per file.
    @discardableResult
    public func create(_ name: String, data: Data, in folder: OpenFolder) throws -> FileSignature {
        try create(name, data: data) { _, bytes in
            try AtomicFile.create(
                named: name, in: folder, bytes: bytes, syncContent: syncsNewFiles, syncFolder: syncsFolderOnEachWrite)
        }
    }

    /// Checks the name, creates the file through `make` (given its path and bytes) and notes it
    /// for `makeDurable()`.
    private func create(
        _ name: String, data: Data,
        through make: (String, UnsafeBufferPointer<UInt8>) throws -> FileSignature
    ) throws -> FileSignature {
        let p = try checkedPath(name)
        do {
            let signature = try data.withUnsafeBytes { try make(p, $0.bindMemory(to: UInt8.self)) }
            if !syncsNewFiles { unsynced.add(p) }
            return signature
        } catch let error as AtomicFileError where error.code == EEXIST {
            throw VDirError(.alreadyExists, "\(p) exists already")
        }
    }

    /// Replaces an item file if its signature is still `expected`.
    /// - Throws: `VDirError.changedMeanwhile` when the file changed or vanished.
    @discardableResult
    public func replace(_ name: String, data: Data, ifSignature expected: FileSignature) throws -> FileSignature {
        try replace(name, data: data, ifStill: { $0 == expected })
    }

    /// Replaces an item file if its etag (in either form) is still `etag`.
    /// - Throws: `VDirError.changedMeanwhile` when the file changed or vanished.
    @discardableResult
    public func replace(_ name: String, data: Data, ifEtag etag: String) throws -> FileSignature {
        try replace(name, data: data, ifStill: { $0.matches(etag: etag) })
    }

    private func replace(_ name: String, data: Data, ifStill unchanged: (FileSignature) -> Bool) throws -> FileSignature
    {
        let p = try checkedPath(name)
        guard let before = FileSignature.of(path: p), unchanged(before) else {
            throw VDirError(.changedMeanwhile, "\(p) changed since it was read")
        }
        let writer = try AtomicFileWriter(replacingFileAt: p)
        try data.withUnsafeBytes { try writer.write($0.bindMemory(to: UInt8.self)) }
        // Last look before the rename: the window left is as small as a rename allows.
        guard FileSignature.of(path: p) == before else {
            writer.discard()
            throw VDirError(.changedMeanwhile, "\(p) changed since it was read")
        }
        try writer.commit(syncFolder: syncsFolderOnEachWrite)
        return try signature(p)
    }

    /// Deletes an item file if its signature is still `expected`; a file already gone is fine.
    /// - Throws: `VDirError.changedMeanwhile` when the file changed.
    public func delete(_ name: String, ifSignature expected: FileSignature) throws {
        try delete(name, ifStill: { $0 == expected })
    }

    /// Deletes an item file if its etag (in either form) is still `etag`; a file already gone is fine.
    /// - Throws: `VDirError.changedMeanwhile` when the file changed.
    public func delete(_ name: String, ifEtag etag: String) throws {
        try delete(name, ifStill: { $0.matches(etag: etag) })
    }

    private func delete(_ name: String, ifStill unchanged: (FileSignature) -> Bool) throws {
        let p = try checkedPath(name)
        guard let current = FileSignature.of(path: p) else { return }
        guard unchanged(current) else { throw VDirError(.changedMeanwhile, "\(p) changed since it was read") }
        guard unlink(p) == 0 || errno == ENOENT else {
            let e = errno
            throw VDirError(.io, "cannot delete \(p): \(String(cString: strerror(e)))", errno: e, path: p)
        }
        if syncsFolderOnEachWrite { AtomicFile.syncFolder(url) }
    }

    /// The folder's `displayname` or `color` file (vdir metadata), trimmed; nil when absent.
    public func metadata(_ key: MetadataKey) -> String? {
        guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(key.rawValue).path) else {
            return nil
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Writes (or with nil removes) a metadata file, atomically.
    public func setMetadata(_ key: MetadataKey, _ value: String?) throws {
        let file = url.appendingPathComponent(key.rawValue)
        if let value {
            try AtomicFile.write(Array((value + "\n").utf8), to: file)
        } else {
            unlink(file.path)
        }
    }

    /// The vdir's metadata files.
    public enum MetadataKey: String, Sendable, CaseIterable {
        /// The `displayname` file: the calendar's name.
        case displayName = "displayname"
        /// The `color` file: the calendar's color.
        case color
    }

    /// The path of an item file, after checking the name stays inside the folder.
    public func path(_ name: String) -> String { String(joining: folderPath, "/", name) }

    func checkedPath(_ name: String) throws -> String {
        let hasNul = name.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? name.utf8.contains(0)
        guard ItemFileFilter.isItem(name), !hasNul, name != "..", name.utf8.count <= 250 else {
            throw VDirError(.unsafeName, "\"\(name)\" is not an item file name in \(url.path)")
        }
        return path(name)
    }

    func signature(_ p: String) throws -> FileSignature {
        guard let s = FileSignature.of(path: p) else {
            throw VDirError(.io, "\(p) vanished right after it was written")
        }
        return s
    }
}
