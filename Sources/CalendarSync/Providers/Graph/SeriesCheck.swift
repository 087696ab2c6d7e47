import Foundation

/// When a delta round must ask every known series its change key.
///
/// An occurrence deleted in Outlook leaves no trace in a delta round (its entries are stubs,
/// and a deleted one has none: docs PR #4501); only its master's change key moves. Asking
/// every master costs a listing page per 1,000 events, each round. The calendar folder's
/// commit stamp (`PR_LOCAL_COMMIT_TIME_MAX`, read in the same `$batch` as the round) moves with
/// any write in the folder, so a round whose stamp is the one the series were last asked at
/// skips the question: a run that finds nothing new is one request.
///
/// A run that wrote keeps the stamp its own writes left (read after them), so the next run
/// is one request too. A change made in Outlook during those seconds would then wait: every
/// series is asked at least once every ``interval`` whatever the stamp says.
enum SeriesCheck {
    /// The longest time between two rounds that ask every series.
    static let interval: TimeInterval = 24 * 3600

    /// Whether the round that read `stamp` (nil: Graph gave none) at `now` asks every series,
    /// after `state`.
    static func needed(stamp: String?, after state: GraphListingState, now: Date) -> Bool {
        guard let stamp, stamp == state.stamp, let checked = state.checked else { return true }
        return now.timeIntervalSince(checked) >= interval || now < checked
    }
}
