import Foundation

/// What `stat` says about a file that changes whenever its content may have: modification
/// time in nanoseconds, size and inode. A vdir item's etag is this signature as text, so a
/// file is read and hashed again only when its signature changed.
public struct FileSignature: Hashable, Sendable, CustomStringConvertible {
    public var modificationNanoseconds: Int64
    public var size: Int64
    public var inode: UInt64

    public init(modificationNanoseconds: Int64, size: Int64, inode: UInt64) {
        self.modificationNanoseconds = modificationNanoseconds
        self.size = size
        self.inode = inode
    }

    /// The signature from a `stat` result.
    init(_ info: stat) {
        #if canImport(Darwin)
        let ns = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        let ns = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        self.init(modificationNanoseconds: ns, size: Int64(info.st_size), inode: UInt64(info.st_ino))
    }

    /// `mtime-ns:size:inode`, the etag a vdir item carries.
    public var etag: String { "\(modificationNanoseconds):\(size):\(inode)" }

    public var description: String { etag }

    /// Reads a signature back from its etag text.
    public init?(etag: String) {
        let parts = etag.split(separator: ":")
        guard parts.count == 3, let ns = Int64(parts[0]), let size = Int64(parts[1]), let inode = UInt64(parts[2]) else { return nil }
        self.init(modificationNanoseconds: ns, size: size, inode: inode)
    }

    /// The signature of the regular file at `path`, nil when there is none (or it is not a
    /// regular file; symbolic links are followed).
    public static func of(path: String) -> FileSignature? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileSignature(info)
    }
}
