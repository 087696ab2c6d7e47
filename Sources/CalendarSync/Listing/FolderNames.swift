import Foundation
import VDir

/// The names in one folder, read with `readdir` into one buffer, and the `stat` of each
/// relative to the open folder (no path lookup from the root per file), on every core for a
/// large folder: at 100,000 files the `stat` calls are most of what a listing from the index costs.
///
/// The order the folder gave the names in is kept beside them (``folderOrder``): a folder read
/// again after one of its files was replaced by a rename (as every edit does) gives the same
/// names, in the same order or with the renamed one moved (``HeldNames``), and their sorted
/// order is then taken from the names read before instead of sorting them again
/// (``read(path:keep:before:)``): at 100,000 names, 17 M instructions where reading them into
/// arrays and sorting them took 79 M.
struct FolderNames {
    /// Every name's bytes, each followed by a NUL: in the order the folder gave them when
    /// read, in the order kept when taken from the index (one after another for the `stat`
    /// calls, which copy each name: scattered over the buffer, they took a tenth more time).
    private(set) var bytes: [UInt8] = []
    /// Where each name starts in `bytes`, in the order kept.
    private(set) var starts: [Int] = []
    /// Each name's length in bytes.
    private(set) var lengths: [Int] = []
    /// Each name's `d_type`.
    private(set) var types: [UInt8] = []
    /// The position of each name in the order kept, in the order the folder gave them.
    private(set) var folderOrder: [UInt32] = []

    var count: Int { starts.count }

    /// The names of `path` that `keep` takes (given the name's bytes and `d_type`), "." and
    /// ".." left out; nil when the folder cannot be read.
    init?(path: String, keep: (UnsafeBufferPointer<UInt8>, UInt8) -> Bool) {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        self.init(dir, keep: keep)
    }

    /// The names of the open folder `dir` that `keep` takes, from where it stands.
    private init(_ dir: OpaquePointer, keep: (UnsafeBufferPointer<UInt8>, UInt8) -> Bool) {
        var (starts, lengths, types) = ([Int](), [Int](), [UInt8]())
        // The names' bytes gathered in a buffer of our own, doubled as needed, and copied into
        // the array once: appended to the array one name at a time, they cost 140 instructions
        // a name (a generic append, its uniqueness and room checked).
        var capacity = 1 << 16
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        var used = 0
        defer { buffer.deallocate() }
        FolderEntries.forEach(in: dir) { name, type in
            guard keep(name, type) else { return }
            if used + name.count + 1 > capacity {
                capacity = max(2 * capacity, used + name.count + 1)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                grown.update(from: buffer, count: used)
                buffer.deallocate()
                buffer = grown
            }
            starts.append(used)
            lengths.append(name.count)
            types.append(type)
            (buffer + used).update(from: name.baseAddress!, count: name.count)
            buffer[used + name.count] = 0
            used += name.count + 1
        }
        bytes = Array(UnsafeBufferPointer(start: buffer, count: used))
        (self.starts, self.lengths, self.types) = (starts, lengths, types)
        folderOrder = Array(0..<UInt32(starts.count))
    }

    /// The names of `path` that `keep` takes, and whether they are `before`'s: the same names
    /// of the same types, told as they are read (``HeldNames``), with no array made for them.
    /// Then `before` is returned as it is, in the order it was put in; else the names read, in
    /// the folder's order. Nil when the folder cannot be read.
    static func read(
        path: String, keep: (UnsafeBufferPointer<UInt8>, UInt8) -> Bool, before: FolderNames?
    ) -> (names: FolderNames, same: Bool)? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        guard let before else { return (FolderNames(dir, keep: keep), false) }
        let same = before.bytes.withUnsafeBufferPointer { held in
            var walk = HeldNames(held: held, names: before)
            return FolderEntries.allSatisfy(in: dir) { walk.take($0, $1, keep: keep) } && walk.finish()
        }
        if same { return (before, true) }
        rewinddir(dir)
        return (FolderNames(dir, keep: keep), false)
    }

    /// What the listing index stores of a folder, appended to `out` (which ``storedLength``
    /// bytes more hold): how many names and how many bytes they take; the names in the order
    /// kept, each followed by a NUL; their `d_type`s; then ``folderOrder``.
    func appendStoredForm(to out: inout [UInt8]) {
        ListingIndex.append(UInt32(count), to: &out)
        ListingIndex.append(UInt32(namesLength), to: &out)
        bytes.withUnsafeBufferPointer { bytes in
            for i in starts.indices {
                out += UnsafeBufferPointer(rebasing: bytes[starts[i]...(starts[i] + lengths[i])])
            }
        }
        out += types
        folderOrder.map { $0.littleEndian }.withUnsafeBytes { out += $0 }
    }

    /// How many bytes ``appendStoredForm(to:)`` appends.
    var storedLength: Int { 8 + namesLength + 5 * count }

    /// How many bytes the names take, each with its NUL.
    private var namesLength: Int { lengths.reduce(count, +) }

    /// Reads the stored form ``appendStoredForm(to:)`` wrote.
    /// - Throws: `ListingIndex.Unusable` when it runs past the end or does not hold together:
    ///   as many names as types, each position in the folder's order once.
    static func read(from reader: inout ListingIndex.Reader) throws -> FolderNames {
        let (count, length) = (Int(try reader.uint32()), Int(try reader.uint32()))
        var names = FolderNames()
        names.bytes = Array(try reader.bytes(length))
        names.starts.reserveCapacity(count)
        names.lengths.reserveCapacity(count)
        var start = 0
        names.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            while start < bytes.count, let nul = memchr(base + start, 0, bytes.count - start) {
                let end = UnsafeRawPointer(nul) - UnsafeRawPointer(base)
                names.starts.append(start)
                names.lengths.append(end - start)
                start = end + 1
            }
        }
        names.types = Array(try reader.bytes(count))
        let order = try reader.bytes(4 * count)
        names.folderOrder = (0..<count).map {
            UInt32(littleEndian: order.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))
        }
        var seen = [Bool](repeating: false, count: count)
        let whole = names.folderOrder.allSatisfy { position in
            guard Int(position) < count, !seen[Int(position)] else { return false }
            seen[Int(position)] = true
            return true
        }
        guard start == length, names.starts.count == count, whole else {
            throw ListingIndex.Unusable(description: "damaged")
        }
        return names
    }

    private init() {}

    /// Calls `body` with every name's bytes, each followed by a NUL, where `starts` point.
    func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T { bytes.withUnsafeBufferPointer(body) }

    /// Calls `body` with the bytes of the name at position `i`.
    func withName<T>(at i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[starts[i]..<(starts[i] + lengths[i])])) }
    }

    /// Whether the name at position `i` is UTF-8 (ASCII at a glance, else checked).
    func isUTF8(at i: Int) -> Bool {
        withName(at: i) { name in
            name.allSatisfy { $0 < 0x80 } || String(validating: name, as: UTF8.self) != nil
        }
    }

    /// The name at position `i`, bytes that are not UTF-8 replaced (as Foundation names such a
    /// file: a path that then names nothing).
    func repairedName(at i: Int) -> String { withName(at: i) { String(decoding: $0, as: UTF8.self) } }

    private func nameBytes(at i: Int) -> ArraySlice<UInt8> { bytes[starts[i]..<(starts[i] + lengths[i])] }

    /// Whether every name is ASCII (so that byte order is `String` order): eight bytes at a time.
    var isASCII: Bool {
        bytes.withUnsafeBytes { raw in
            var any: UInt64 = 0
            var i = 0
            while i + 8 <= raw.count {
                any |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < raw.count {
                any |= UInt64(raw[i])
                i += 1
            }
            return any & 0x8080_8080_8080_8080 == 0
        }
    }

    /// Puts the names in the order of their bytes (`strcmp`, as `VDirectory` lists them).
    mutating func sortByBytes() {
        let order = bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                lengths.withUnsafeBufferPointer { lengths in
                    ByteOrder.positions(
                        count: starts.count, base: bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!,
                        start: { starts[$0] }, length: { lengths[$0] })
                }
            }
        }
        keep(order)
    }

    /// Keeps the names at `positions`, in that order.
    mutating func keep(_ positions: [Int]) {
        starts = positions.map { starts[$0] }
        lengths = positions.map { lengths[$0] }
        types = positions.map { types[$0] }
        // Each name's new position, and the folder's order of those kept.
        var moved = [UInt32?](repeating: nil, count: folderOrder.count)
        for (new, old) in positions.enumerated() { moved[old] = UInt32(new) }
        folderOrder = folderOrder.compactMap { moved[Int($0)] }
    }

    /// Below this many names a folder is stat'ed on one thread: starting others costs more.
    static let parallelStatMinimum = 4_096

    /// The stamp of each name in the folder `path` (links followed), nil for a name that is
    /// gone or not a regular file; all nil when the folder cannot be opened.
    func stamps(in path: String) -> [FileStamp?] {
        guard !starts.isEmpty else { return [] }
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return Array(repeating: nil, count: starts.count) }
        defer { close(folder) }
        return bytes.withUnsafeBufferPointer { bytes in
            nonisolated(unsafe) let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            return starts.mappedOnEveryCore(minimum: Self.parallelStatMinimum) { FileStamp.of(base + $0, in: folder) }
        }
    }

    /// Whether the entry at `i` of the folder `path` is a folder itself, as `lstat` says (a
    /// link to a folder is not one).
    func isFolder(at i: Int, in path: String) -> Bool {
        switch Int32(types[i]) {
        case Int32(DT_DIR): return true
        case Int32(DT_UNKNOWN):
            var info = stat()
            let name = Array(nameBytes(at: i)) + [0]
            return name.withUnsafeBufferPointer { name in
                let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard folder >= 0 else { return false }
                defer { close(folder) }
                let cName = UnsafeRawPointer(name.baseAddress!).assumingMemoryBound(to: CChar.self)
                return fstatat(folder, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
        default: return false
        }
    }
}
