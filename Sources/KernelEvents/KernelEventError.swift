import Failures

/// What can fail when asking the kernel for an event source: inotify (none left to make, a
/// folder that cannot be watched), a timerfd, the signal pipe, the wait itself, or a program run in the foreground.
public enum KernelEventFailure: FailureCode {
    /// No inotify instance could be made (the per-user limit, or no kernel support).
    case inotifyUnavailable
    /// A folder could not be watched (missing, no permission, the watch limit reached).
    case cannotWatch
    /// No timerfd could be made.
    case noTimer
    /// SIGINT and SIGTERM could not be turned into a descriptor.
    case noSignalPipe
    /// `poll(2)` failed for another reason than a signal.
    case waitFailed
    /// A program could not be started.
    case cannotStart
}

/// An error of ``KernelEventFailure``.
public typealias KernelEventError = CodedError<KernelEventFailure>
