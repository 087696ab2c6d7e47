/// When to poll the server next: every `interval` while runs succeed; after a failed run the
/// wait doubles, up to ``maximumDelay``, and drops back to `interval` after the next success.
struct PollSchedule: Equatable {
    /// The wait between polls while all is well, in seconds.
    let interval: Double
    /// The longest wait after repeated failures: 15 minutes.
    static let maximumDelay: Double = 15 * 60
    /// The wait before the next poll, in seconds.
    private(set) var delay: Double

    init(interval: Double) {
        self.interval = interval
        delay = interval
    }

    /// Records a run's outcome and returns the wait before the next poll.
    @discardableResult
    mutating func record(success: Bool) -> Double {
        delay = success ? interval : min(max(delay * 2, interval), max(Self.maximumDelay, interval))
        return delay
    }
}
