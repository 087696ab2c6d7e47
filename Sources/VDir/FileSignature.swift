import Foundation

/// What `stat` says about a file that changes whenever its content may have: modification
/// time in nanoseconds, size and inode. A vdir item's etag is made from this signature, so a
/// file is read and hashed again only when its signature changed.
public struct FileSignature: Hashable, Sendable, CustomStringConvertible {
    /// The modification time, in nanoseconds since 1970.
    public var modificationNanoseconds: Int64
    /// The size, in bytes.
    public var size: Int64
    /// The inode number: a file replaced by a rename has a new one.
    public var inode: UInt64

    /// The signature of these three numbers.
    public init(modificationNanoseconds: Int64, size: Int64, inode: UInt64) {
        self.modificationNanoseconds = modificationNanoseconds
        self.size = size
        self.inode = inode
    }

    /// No file: what a listing notes for a name it found gone (no file has a negative size).
    static let missing = FileSignature(modificationNanoseconds: .min, size: -1, inode: 0)

    /// The signature from a `stat` result.
    init(_ info: stat) {
        #if canImport(Darwin)
            let ns = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            let ns = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        self.init(modificationNanoseconds: ns, size: Int64(info.st_size), inode: UInt64(info.st_ino))
    }

    /// The etag a vdir item carries: the three numbers hashed (64-bit FNV-1a) and written in
    /// 11 characters, which Swift keeps inline, where the 31 characters of `legacyEtag` took an
    /// allocation per file (at a million files, two listings held 130 MB of them).
    public var etag: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for var word in [UInt64(bitPattern: modificationNanoseconds), UInt64(bitPattern: size), inode] {
            for _ in 0..<8 {
                hash = (hash ^ (word & 0xFF)) &* 0x0000_0100_0000_01B3
                word >>= 8
            }
        }
        // Written as bytes into the string's own storage: appending scalar by scalar took a
        // twentieth of a no-op at 100,000 files.
        return String(unsafeUninitializedCapacity: 11) { text in
            for i in 0..<11 {
                text[i] = Self.digits[Int(hash & 63)]
                hash >>= 6
            }
            return 11
        }
    }

    private static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `mtime-ns:size:inode`, the etag of earlier versions: journals written by them hold it.
    public var legacyEtag: String { "\(modificationNanoseconds):\(size):\(inode)" }

    /// The legacy etag, `mtime-ns:size:inode`.
    public var description: String { legacyEtag }

    /// True when `etag` is this signature's etag, in either form.
    public func matches(etag: String) -> Bool {
        etag == self.etag || FileSignature(legacyEtag: etag) == self
    }

    /// Reads a signature back from the etag of earlier versions (`legacyEtag`).
    public init?(legacyEtag etag: String) {
        let parts = etag.split(separator: ":")
        guard parts.count == 3, let ns = Int64(parts[0]), let size = Int64(parts[1]), let inode = UInt64(parts[2])
        else { return nil }
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
