/// Why `watch` ran a pair: its first run, a local change, or its poll.
public enum WatchTrigger: String, Encodable, Sendable { case start, local, poll }

/// A pair's timers in the watch loop: the debounced local changes and the next poll.
public struct PairScheduleState {
    /// The pair's local changes, waiting for quiet.
    public var debouncer = Debouncer()
    var poll: PollSchedule
    /// When the next poll is due, on the monotonic clock.
    var nextPoll: Double

    /// A pair just started watching at `now`, polled every `interval` seconds.
    public init(interval: Double, now: Double) {
        poll = PollSchedule(interval: interval)
        nextPoll = now + interval
    }

    /// How long the loop may sleep before something of this pair is due.
    public func nextWake(after now: Double) -> Double {
        min(nextPoll, debouncer.deadline ?? .infinity) - now
    }

    /// What is due at `now`: local changes first (they carry the user's edits), else the poll.
    public mutating func due(at now: Double) -> WatchTrigger? {
        if debouncer.fire(at: now) { return .local }
        if now >= nextPoll { return .poll }
        return nil
    }

    /// Records a run's outcome; every run counts as a poll. Returns the wait to the next poll.
    public mutating func finished(success: Bool, at now: Double) -> Double {
        let delay = poll.record(success: success)
        nextPoll = now + delay
        return delay
    }
}

/// Collapses a burst of file changes into one sync: each change pushes the deadline to
/// `quiet` seconds after it, and the sync is due once the folder has been quiet that long.
public struct Debouncer {
    /// How long the vdir must stay quiet before syncing, in seconds (500 ms).
    let quiet: Double
    /// When the pending changes are due, on the caller's monotonic clock; nil when none.
    private(set) var deadline: Double?

    /// A debouncer waiting for `quiet` seconds without a change.
    public init(quiet: Double = 0.5) { self.quiet = quiet }

    /// A change was seen at `now`.
    public mutating func touch(at now: Double) { deadline = now + quiet }

    /// Whether the pending changes are due at `now`; clears them when they are.
    public mutating func fire(at now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        self.deadline = nil
        return true
    }
}

/// When to poll the server next: every `interval` while runs succeed; after a failed run the
/// wait doubles, up to ``maximumDelay``, and drops back to `interval` after the next success.
public struct PollSchedule: Equatable, Sendable {
    /// The wait between polls while all is well, in seconds.
    let interval: Double
    /// The longest wait after repeated failures: 15 minutes.
    static let maximumDelay: Double = 15 * 60
    /// The wait before the next poll, in seconds.
    private(set) var delay: Double

    /// Polls every `interval` seconds until a run fails.
    public init(interval: Double) {
        self.interval = interval
        delay = interval
    }

    /// Records a run's outcome and returns the wait before the next poll.
    @discardableResult
    public mutating func record(success: Bool) -> Double {
        delay = success ? interval : min(max(delay * 2, interval), max(Self.maximumDelay, interval))
        return delay
    }
}
