/// Collapses a burst of file changes into one sync: each change pushes the deadline to
/// `quiet` seconds after it, and the sync is due once the folder has been quiet that long.
struct Debouncer {
    /// How long the vdir must stay quiet before syncing, in seconds (500 ms).
    let quiet: Double
    /// When the pending changes are due, on the caller's monotonic clock; nil when none.
    private(set) var deadline: Double?

    init(quiet: Double = 0.5) { self.quiet = quiet }

    /// A change was seen at `now`.
    mutating func touch(at now: Double) { deadline = now + quiet }

    /// Whether the pending changes are due at `now`; clears them when they are.
    mutating func fire(at now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        self.deadline = nil
        return true
    }
}
