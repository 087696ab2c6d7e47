import CWallClock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A timer set to a time of day, not a length of time: a Linux timerfd on the real-time clock,
/// armed with an absolute time (the `CWallClock` shim). Unlike a timeout on the monotonic
/// clock, it comes due at the wall-clock time though the machine slept or the process was
/// stopped in between (at once on waking), and a change of the clock ends the wait
/// (``fire()`` answers `clockChanged`), so the caller can look at the time again.
///
/// ``fileDescriptor`` goes into `poll(2)` beside the loop's other descriptors.
public final class WallClockTimer {
    /// The timerfd, for `poll(2)`.
    public let fileDescriptor: Int32

    /// - Throws: ``KernelEventError`` when no timerfd can be made.
    public init() throws {
        let fd = cwallclock_timer_create()
        guard fd >= 0 else {
            throw KernelEventError(.noTimer, "cannot make a timer for alarms: \(String(cString: strerror(errno)))")
        }
        fileDescriptor = fd
    }

    deinit { close(fileDescriptor) }

    /// Comes due at `seconds` since the epoch (at once when that is past); nil disarms.
    public func arm(at seconds: Int64?) { _ = cwallclock_timer_arm(fileDescriptor, seconds.map { max($0, 0) } ?? -1) }

    /// What the timer says once `poll(2)` finds it readable.
    public enum Reading { case due, clockChanged, notDue }

    /// Reads the timer: due, cancelled by a change of the clock, or nothing (a spurious wake).
    public func fire() -> Reading {
        switch cwallclock_timer_read(fileDescriptor) {
        case 1: return .due
        case 2: return .clockChanged
        default: return .notDue
        }
    }

    /// The real-time clock's seconds since the epoch.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }
}
