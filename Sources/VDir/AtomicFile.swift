import CFileSystem
import Foundation

/// Replacing a file so that a reader, or a crash at any instant, sees either the old content or
/// the new one, never a mix: write a temporary file in the same folder, fsync it, rename it over
/// the target, fsync the folder.
public enum AtomicFile {
    /// Writes `bytes` to `url`, keeping the permissions of the file it replaces (0644 less the
    /// umask for a new one).
    /// - Throws: `AtomicFileError` naming the file and the failing step; the target is untouched.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        let writer = try AtomicFileWriter(replacing: url)
        try bytes.withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
    }

    /// Creates the file at `path`, which must not exist, holding `bytes`, so that neither a
    /// reader nor a crash ever sees it half-written: the file is written without a name
    /// (O_TMPFILE) and then linked in, which costs the folder one update where a named temporary
    /// file costs three (create, link, unlink). Where the file system has no unnamed files, a
    /// named temporary file is used instead.
    ///
    /// With `syncContent` false the file is not fsynced: the caller makes it durable later
    /// (`syncFileSystem`) and, until then, treats a torn file at that name after a power loss
    /// as not written.
    /// - Returns: the new file's signature.
    /// - Throws: `AtomicFileError`, with code `EEXIST` when the name is taken (nothing is
    ///   changed then) and `ENOENT` when the folder is missing.
    public static func create(at path: String, bytes: UnsafeBufferPointer<UInt8>, syncContent: Bool, syncFolder: Bool)
        throws -> FileSignature
    {
        let folder = (path as NSString).deletingLastPathComponent
        let fd = cfs_open_unnamed(folder.isEmpty ? "." : folder, 0o644)
        guard fd >= 0 else {
            guard [EOPNOTSUPP, EISDIR, EINVAL, ENOSYS].contains(errno) else {
                throw AtomicFileError(path: path, step: "create", errno: errno)
            }
            let writer = try AtomicFileWriter(replacingFileAt: path)
            try writer.write(bytes)
            try writer.commitIfAbsent(syncFolder: syncFolder, syncContent: syncContent)
            guard let signature = FileSignature.of(path: path) else {
                throw AtomicFileError(path: path, step: "stat", errno: errno)
            }
            return signature
        }
        defer { close(fd) }
        // 0644 less the umask, as for any new file: a user whose umask keeps files private
        // gets private calendar files.
        try writeAll(bytes, to: fd, path: path)
        guard !syncContent || fsync(fd) == 0 else { throw AtomicFileError(path: path, step: "fsync", errno: errno) }
        guard cfs_link_unnamed(fd, path) == 0 else { throw AtomicFileError(path: path, step: "create", errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw AtomicFileError(path: path, step: "stat", errno: errno) }
        if syncFolder { Self.syncFolder(atPath: folder) }
        return FileSignature(info)
    }

    /// Writes every byte of `bytes` to `fd` (short writes and EINTR continue).
    /// - Throws: `AtomicFileError` naming `path`.
    static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32, path: @autoclosure () -> String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw AtomicFileError(path: path(), step: "write", errno: errno)
            }
            offset += n
        }
    }

    /// fsyncs a folder, so the renames and unlinks made in it survive a crash.
    public static func syncFolder(_ folder: URL) { syncFolder(atPath: folder.path) }

    /// fsyncs the folder at `path`.
    public static func syncFolder(atPath path: String) {
        let dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 { fsync(dirfd); close(dirfd) }
    }

    /// True where `syncFileSystem` exists (Linux's `syncfs`).
    public static let canSyncFileSystem = cfs_has_syncfs() != 0

    /// Makes everything written to the file system holding `folder` durable in one call
    /// (`syncfs`): file contents, renames and unlinks alike. One call for a batch of files
    /// costs one journal commit where an fsync per file costs one each.
    /// - Throws: `AtomicFileError` when the file system reports a write error.
    /// - Precondition: `canSyncFileSystem`.
    public static func syncFileSystem(holding folder: URL) throws {
        let dirfd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirfd >= 0 else { throw AtomicFileError(path: folder.path, step: "open the folder", errno: errno) }
        defer { close(dirfd) }
        guard cfs_syncfs(dirfd) == 0 else {
            throw AtomicFileError(path: folder.path, step: "sync its file system", errno: errno)
        }
    }
}

/// A file could not be replaced; the original is unchanged.
public struct AtomicFileError: Error, CustomStringConvertible, Sendable {
    /// The file (or folder) the failed call was about.
    public var path: String
    /// What was being done, as in "could not `step`".
    public var step: String
    /// The system call's error number.
    public var code: Int32

    /// - Parameters:
    ///   - path: the file (or folder) the failed call was about.
    ///   - step: what was being done, as in "could not `step`".
    ///   - errno: the system call's error number.
    public init(path: String, step: String, errno: Int32) {
        self.path = path
        self.step = step
        self.code = errno
    }

    /// `path: could not step: reason`, the reason as `strerror` gives it.
    public var description: String {
        "\(path): could not \(step): \(String(cString: strerror(code)))"
    }
}
