#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The write end of the signal pipe, used from the signal handler (async-signal-safe `write`).
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1

/// SIGINT and SIGTERM turned into a readable descriptor (the self-pipe trick), so the watch
/// loop notices them in `poll(2)` between runs and a run in progress is never cut short.
public enum SignalPipe {
    /// Installs the handlers; returns the read end to poll.
    /// - Throws: ``KernelEventError`` when no pipe could be made.
    public static func install() throws -> Int32 {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw KernelEventError(
                .noSignalPipe, "cannot install signal handlers: \(String(cString: strerror(errno)))")
        }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        signalWriteEnd = fds[1]
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalWriteEnd, &byte, 1)
            }
        }
        return fds[0]
    }

    /// The signal numbers waiting in the pipe (empty when none).
    public static func drain(_ readEnd: Int32) -> [Int32] {
        var out: [Int32] = []
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) == 1 { out.append(Int32(byte)) }
        return out
    }
}
