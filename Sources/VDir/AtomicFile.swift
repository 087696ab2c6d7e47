import Foundation

/// Replacing a file so that a reader, or a crash at any instant, sees either the old content or
/// the new one, never a mix: write a temporary file in the same folder, fsync it, rename it over
/// the target, fsync the folder.
public enum AtomicFile {
    /// Writes `bytes` to `url`, keeping the permissions of the file it replaces (0644 for a new one).
    /// - Throws: `AtomicFileError` naming the file and the failing step; the target is untouched.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let mode: mode_t
        var info = stat()
        if stat(url.path, &info) == 0 { mode = info.st_mode & 0o7777 } else { mode = 0o644 }
        let tempPath = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        let fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw AtomicFileError(path: url.path, step: "create a temporary file", errno: errno) }
        var ok = false
        defer { if !ok { unlink(tempPath) } }
        do {
            defer { close(fd) }
            try bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw AtomicFileError(path: url.path, step: "write", errno: errno)
                    }
                    offset += n
                }
            }
            fchmod(fd, mode)
            guard fsync(fd) == 0 else { throw AtomicFileError(path: url.path, step: "fsync", errno: errno) }
        }
        guard rename(tempPath, url.path) == 0 else { throw AtomicFileError(path: url.path, step: "rename into place", errno: errno) }
        ok = true
        let dirfd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 { fsync(dirfd); close(dirfd) }
    }
}

/// A file could not be replaced; the original is unchanged.
public struct AtomicFileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var step: String
    public var code: Int32

    init(path: String, step: String, errno: Int32) {
        self.path = path
        self.step = step
        self.code = errno
    }

    public var description: String {
        "\(path): could not \(step): \(String(cString: strerror(code)))"
    }
}
