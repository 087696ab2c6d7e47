import Foundation

/// Writes a new version of a file in pieces, then either puts it in place atomically
/// (`commit`) or throws it away (`discard`): until `commit`, the original is untouched.
public final class AtomicFileWriter {
    /// The file being replaced.
    public let path: String
    /// The file being replaced, as a URL.
    public var url: URL { URL(fileURLWithPath: path) }
    private let folder: String
    private let tempPath: String
    private let fd: Int32
    /// The permissions of the file replaced; nil for a new file, which takes the umask's.
    private let mode: mode_t?
    private var finished = false

    /// Creates the temporary file beside `url`; the new file keeps the old one's permissions.
    public convenience init(replacing url: URL) throws {
        try self.init(replacingFileAt: url.path)
    }

    /// Creates the temporary file beside the file at `path`; the new file keeps the old one's
    /// permissions (a file that did not exist gets 0644 less the umask, as any new file).
    public init(replacingFileAt path: String) throws {
        self.path = path
        var info = stat()
        mode = stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
        let name: Substring
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
            name = path[path.index(after: slash)...]
        } else {
            folder = "."
            name = path[...]
        }
        tempPath = "\(folder)/.\(name).\(Self.processID).\(UInt32.random(in: 0...UInt32.max)).tmp"
        fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ?? 0o644)
        guard fd >= 0 else { throw AtomicFileError(path: path, step: "create a temporary file", errno: errno) }
    }

    private static let processID = getpid()

    /// Appends `bytes` to the new version; the file in place is untouched until `commit`.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        try AtomicFile.writeAll(bytes, to: fd, path: path)
    }

    /// fsyncs the new content, renames it over the file, fsyncs the folder (unless
    /// `syncFolder` is false: the caller then syncs the folder once for many files).
    public func commit(syncFolder: Bool = true) throws {
        guard try flushAndClose() else { return }
        guard rename(tempPath, url.path) == 0 else {
            let e = errno
            unlink(tempPath)
            throw AtomicFileError(path: url.path, step: "rename into place", errno: e)
        }
        if syncFolder { AtomicFile.syncFolder(url.deletingLastPathComponent()) }
    }

    /// Like `commit`, but puts the file in place only if no file of that name exists
    /// (a hard link, which fails instead of replacing), so a create never overwrites.
    ///
    /// With `syncContent` false the new file is not fsynced either: the caller makes it
    /// durable later (`AtomicFile.syncFileSystem`) and, until then, must treat a torn file at
    /// that name after a power loss as not written. No earlier content is at stake, since the
    /// name was free.
    /// - Throws: `AtomicFileError` with code `EEXIST` when the name is taken.
    public func commitIfAbsent(syncFolder: Bool = true, syncContent: Bool = true) throws {
        guard try flushAndClose(syncContent: syncContent) else { return }
        guard link(tempPath, url.path) == 0 else {
            let e = errno
            unlink(tempPath)
            throw AtomicFileError(path: url.path, step: "create", errno: e)
        }
        unlink(tempPath)
        if syncFolder { AtomicFile.syncFolder(url.deletingLastPathComponent()) }
    }

    /// Sets the mode, fsyncs (unless `syncContent` is false) and closes the temporary file, once.
    /// - Returns: false when the writer was already committed or discarded.
    private func flushAndClose(syncContent: Bool = true) throws -> Bool {
        guard !finished else { return false }
        finished = true
        if let mode { fchmod(fd, mode) }
        guard !syncContent || fsync(fd) == 0 else {
            let e = errno
            close(fd); unlink(tempPath)
            throw AtomicFileError(path: url.path, step: "fsync", errno: e)
        }
        close(fd)
        return true
    }

    /// Removes the temporary file; the original stays as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        close(fd)
        unlink(tempPath)
    }

    deinit { discard() }
}
