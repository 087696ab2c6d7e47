import Foundation

/// What `stat` says of a file, enough to tell that it changed: the device and inode (a file
/// replaced by a rename, or a folder swapped for another, has other ones), the size, and the
/// modification and status-change times in nanoseconds.
///
/// The status-change time (ctime) is what makes the stamp hard to fool: `touch -r` puts a
/// modification time back, but every write and every `utimensat` sets the ctime to the
/// present, and no call sets it to anything else.
public struct FileStamp: Hashable, Sendable {
    /// The device holding the file.
    public var device: UInt64
    /// The inode number.
    public var inode: UInt64
    /// The size, in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since 1970.
    public var modified: Int64
    /// The status-change time, in nanoseconds since 1970.
    public var changed: Int64

    /// The stamp of these numbers.
    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// The stamp of a `stat` result.
    init(_ info: stat) {
        #if canImport(Darwin)
            let m = info.st_mtimespec, c = info.st_ctimespec
        #else
            let m = info.st_mtim, c = info.st_ctim
        #endif
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(m.tv_sec) * 1_000_000_000 + Int64(m.tv_nsec),
            changed: Int64(c.tv_sec) * 1_000_000_000 + Int64(c.tv_nsec))
    }

    /// The stamp of the regular file `name` in the open folder `folder` (links followed); nil
    /// when it is gone or not a regular file.
    static func of(_ name: UnsafePointer<CChar>, in folder: Int32) -> FileStamp? {
        var info = stat()
        guard fstatat(folder, name, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(info)
    }

    /// The stamp of the regular file at `path` (links followed); nil when it is gone or not a
    /// regular file.
    public static func of(path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(info)
    }

    /// The stamp of the folder at `path` (links followed); nil when it is not a folder.
    public static func ofFolder(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return FileStamp(info)
    }

    /// How close to a run's start a change must be for the stamp not to vouch for the content
    /// read: file systems keep times in ticks (of the kernel's coarse clock, or of a whole
    /// second, two for FAT), so a write in the same tick as the read can leave every number
    /// as it was.
    public static let racyMargin: Int64 = 2_000_000_000

    /// Whether the file changed so close to `start` (nanoseconds since 1970, read before the
    /// file was stat'ed) that a later write could leave the same stamp: such an entry is read
    /// again next time, as git treats a "racily clean" index entry.
    public func isRacy(runStart start: Int64) -> Bool {
        changed > start - Self.racyMargin || modified > start - Self.racyMargin
    }

    /// The present on the clock file systems stamp times with (the kernel's coarse clock),
    /// in nanoseconds since 1970: a change after this moment has a ctime at or after it.
    public static func now() -> Int64 {
        var t = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_REALTIME_COARSE, &t)
        #else
            clock_gettime(CLOCK_REALTIME, &t)
        #endif
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}
