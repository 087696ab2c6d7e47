import Foundation

/// The errors `watch` has said for each pair: a failure that repeats run after run (a sign-in
/// that expired, a server that is down) is said once, not at every poll, and again only once
/// it changes or after the pair has run cleanly.
final class SaidOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var said: [String: String] = [:]

    /// True when `line` is not what was last said for `pair` (and notes it as said).
    func isNew(_ line: String, pair: String) -> Bool {
        lock.withLock {
            defer { said[pair] = line }
            return said[pair] != line
        }
    }

    /// Forgets what was said for `pair`: it ran cleanly.
    func clear(_ pair: String) { lock.withLock { _ = said.removeValue(forKey: pair) } }
}
