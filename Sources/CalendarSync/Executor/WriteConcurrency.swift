/// How many writes a side that measures its concurrency (a CalDAV server) gets at once, found
/// by trying: a run starts with one, and after each batch large enough to time, the next
/// batch takes twice as many while that made the writes at least `requiredGain` times faster.
/// A batch that was not faster halves the number again, and a server failure (a 5xx, a broken
/// connection) while several were in flight sets it back to one; either ends the search for
/// the run.
///
/// A server that handles each request on its own core (Cyrus) takes a first push of 10,000
/// events about 1.6 times faster two at a time; one that serialises its writes (Radicale)
/// or slows down under them (Xandikos, which takes 300 events at 66/s one at a time and 37/s
/// two at a time) keeps one after a single slower batch.
struct WriteConcurrency: Sendable {
    /// The most writes the storage takes at once.
    let maximum: Int
    /// Writes to make at once in the next batch.
    private(set) var limit = 1
    /// Writes per second of the best batch so far.
    private var bestRate: Double?
    /// True once the limit is found (or the side cannot take more than one).
    private(set) var settled: Bool

    /// Fewer writes than this in a batch are not timed: their rate says too little.
    static let minimumSample = 64
    /// How much faster a batch must be to keep its number of writes at once.
    static let requiredGain = 1.25

    init(maximum: Int) {
        self.maximum = max(1, maximum)
        settled = self.maximum == 1
    }

    /// Always `limit` writes at once: nothing to find.
    static func fixed(_ limit: Int) -> WriteConcurrency {
        var fixed = WriteConcurrency(maximum: limit)
        fixed.limit = fixed.maximum
        fixed.settled = true
        return fixed
    }

    /// Learns from a batch of `writes` made `limit` at a time in `seconds`, of which
    /// `serverFailures` failed on the server's side.
    mutating func observe(writes: Int, seconds: Double, serverFailures: Int) {
        guard !settled else { return }
        if serverFailures > 0 {
            if limit > 1 {
                limit = 1
                settled = true
            }
            return
        }
        guard writes >= Self.minimumSample, seconds > 0 else { return }
        let rate = Double(writes) / seconds
        guard let best = bestRate else {
            bestRate = rate
            limit = min(2, maximum)
            return
        }
        if rate >= best * Self.requiredGain {
            bestRate = rate
            if limit * 2 <= maximum { limit *= 2 } else { settled = true }
        } else {
            limit = max(1, limit / 2)
            settled = true
        }
    }
}
