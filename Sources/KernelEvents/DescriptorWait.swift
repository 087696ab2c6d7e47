#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One `poll(2)` over the event sources of a loop (a ``SignalPipe``, an ``InotifyWatcher``, a
/// ``WallClockTimer``): the thread sleeps until one of them has something to read or the time
/// is up, so that nothing runs between events.
public enum DescriptorWait {
    /// Waits until one of `descriptors` is readable, or `seconds` have passed (at most an hour;
    /// a signal ends the wait early too).
    /// - Returns: For each descriptor, in order, whether it is readable.
    /// - Throws: ``KernelEventError`` when `poll(2)` fails for another reason than a signal.
    public static func readable(_ descriptors: [Int32], within seconds: Double) throws -> [Bool] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let timeout = Int32(max(0, min(seconds, 3600)) * 1000)
        if poll(&fds, nfds_t(fds.count), timeout) < 0 && errno != EINTR {
            throw KernelEventError(.waitFailed, "waiting for changes failed: \(String(cString: strerror(errno)))")
        }
        return fds.map { $0.revents & Int16(POLLIN) != 0 }
    }
}
