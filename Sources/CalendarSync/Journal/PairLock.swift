import Foundation

/// An exclusive lock on a pair (an `flock` on `<journal>.lock`), so two runs never interleave.
/// A second run waits up to `timeout`, then gives up with a clear message. The same lock,
/// waited for without a limit, guards a short section on another file calgw's processes share
/// (``init(file:)``: the record of the alarms `watch` fired).
public final class PairLock: Sendable {
    private let fd: Int32
    /// The lock file, `<journal>.lock`.
    public let url: URL

    /// Takes the lock, waiting up to `timeout` seconds.
    /// - Throws: `JournalError.locked` when another run keeps it.
    public convenience init(journal: URL, timeout: Double = 5) throws {
        try self.init(journal: journal, timeout: timeout, creating: true)
    }

    /// The lock for a run that writes nothing (`status`, a dry run): taken only where a lock
    /// file exists, since a run that may be working made one; where none exists no folder or
    /// file is made, and nil is returned.
    /// - Throws: `JournalError.locked` when another run keeps it.
    static func forReading(journal: URL, timeout: Double = 5) throws -> PairLock? {
        guard FileManager.default.fileExists(atPath: journal.path + ".lock") else { return nil }
        return try PairLock(journal: journal, timeout: timeout, creating: false)
    }

    private init(journal: URL, timeout: Double, creating: Bool) throws {
        url = URL(fileURLWithPath: journal.path + ".lock")
        if creating {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        fd = open(url.path, creating ? O_RDWR | O_CREAT | O_CLOEXEC : O_RDONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw JournalError(.storage, "cannot open the lock file \(url.path): \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if Date() >= deadline {
                close(fd)
                throw JournalError(
                    .locked, "another calgw run is working on this pair (lock \(url.path))",
                    recovery: "wait for it to finish and run again")
            }
            usleep(100_000)
        }
    }

    /// The lock on `file` itself (made, mode 0600, when missing), waited for as long as
    /// another process holds it: its sections are short (a read and an atomic write).
    /// - Throws: `JournalError` when the file cannot be opened.
    init(file: URL) throws {
        url = file
        fd = open(file.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw JournalError(.storage, "cannot open \(file.path): \(String(cString: strerror(errno)))")
        }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
