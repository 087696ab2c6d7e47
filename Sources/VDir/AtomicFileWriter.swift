import Foundation

/// Writes a new version of a file in pieces, then either puts it in place atomically
/// (`commit`) or throws it away (`discard`): until `commit`, the original is untouched.
public final class AtomicFileWriter {
    public let url: URL
    private let tempPath: String
    private let fd: Int32
    private let mode: mode_t
    private var finished = false

    /// Creates the temporary file beside `url`; the new file keeps the old one's permissions.
    public init(replacing url: URL) throws {
        self.url = url
        var info = stat()
        mode = stat(url.path, &info) == 0 ? info.st_mode & 0o7777 : 0o644
        tempPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw AtomicFileError(path: url.path, step: "create a temporary file", errno: errno) }
    }

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw AtomicFileError(path: url.path, step: "write", errno: errno)
            }
            offset += n
        }
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
    /// - Throws: `AtomicFileError` with code `EEXIST` when the name is taken.
    public func commitIfAbsent(syncFolder: Bool = true) throws {
        guard try flushAndClose() else { return }
        guard link(tempPath, url.path) == 0 else {
            let e = errno
            unlink(tempPath)
            throw AtomicFileError(path: url.path, step: "create", errno: e)
        }
        unlink(tempPath)
        if syncFolder { AtomicFile.syncFolder(url.deletingLastPathComponent()) }
    }

    /// Sets the mode, fsyncs and closes the temporary file, once.
    /// - Returns: false when the writer was already committed or discarded.
    private func flushAndClose() throws -> Bool {
        guard !finished else { return false }
        finished = true
        fchmod(fd, mode)
        guard fsync(fd) == 0 else {
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
