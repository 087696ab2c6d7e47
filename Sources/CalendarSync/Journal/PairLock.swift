import Foundation

/// An exclusive lock on a pair (an `flock` on `<journal>.lock`), so two runs never interleave.
/// A second run waits up to `timeout`, then gives up with a clear message.
public final class PairLock: Sendable {
    private let fd: Int32
    public let url: URL

    /// Takes the lock, waiting up to `timeout` seconds.
    /// - Throws: `JournalError.locked` when another run keeps it.
    public init(journal: URL, timeout: Double = 5) throws {
        url = URL(fileURLWithPath: journal.path + ".lock")
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw JournalError(.storage, "cannot open the lock file \(url.path): \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if Date() >= deadline {
                close(fd)
                throw JournalError(.locked, "another calgw run is working on this pair (lock \(url.path))",
                                   recovery: "wait for it to finish and run again")
            }
            usleep(100_000)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
