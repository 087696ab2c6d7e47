/// How many writes a side that measures its concurrency (a CalDAV server) gets at once, found
/// by trying: a run starts with one, and after each batch large enough to time, it tries twice
/// as many on the next batch. The trial is kept when it made the writes at least `requiredGain`
/// times faster (and the next doubling is tried on the batch after); a trial that was not
/// faster goes back, and is tried again `batchesBeforeRetrial` batches later, then twice as
/// many after each trial that fails again: one batch slowed by something else (the machine,
/// the network) does not hold a long run at one write at a time, and a server that is slower
/// for more writes at once pays a slower batch less and less often. A server failure (a 5xx,
/// a broken connection) while several writes were in flight sets the number back to one for
/// the rest of the run.
///
/// A server that handles each request on its own core (Cyrus) takes a first push of 10,000
/// events about 1.6 times faster two at a time; one that serialises its writes (Radicale)
/// or slows down under them (Xandikos, which takes 300 events at 66/s one at a time and 37/s
/// two at a time) costs one slower batch now and then.
struct WriteConcurrency: Sendable {
    /// The most writes the storage takes at once.
    let maximum: Int
    /// Writes to make at once in the next batch.
    private(set) var limit = 1
    /// The number kept so far, and the rate of its last timed batch, in writes per second.
    private var kept = 1
    private var keptRate: Double?
    /// Timed batches to wait before the next trial.
    private var wait = 0
    /// Trials that were not faster, so far.
    private var failedTrials = 0
    /// True when the number is fixed for the rest of the run.
    private(set) var settled: Bool

    /// Fewer writes than this in a batch are not timed: their rate says too little.
    static let minimumSample = 64
    /// How much faster a trial must be to be kept.
    static let requiredGain = 1.25
    /// Timed batches between the first trial that was not faster and the next (doubling).
    static let batchesBeforeRetrial = 4

    init(maximum: Int) {
        self.maximum = max(1, maximum)
        settled = self.maximum == 1
    }

    /// Always `limit` writes at once: nothing to find.
    static func fixed(_ limit: Int) -> WriteConcurrency {
        var fixed = WriteConcurrency(maximum: limit)
        fixed.limit = fixed.maximum
        fixed.kept = fixed.maximum
        fixed.settled = true
        return fixed
    }

    /// True while the next batch is a trial of more writes at once than the number kept.
    var isTrying: Bool { limit > kept }

    /// Learns from a batch of `writes` made `limit` at a time in `elapsed`, of which
    /// `serverFailures` failed on the server's side.
    mutating func observe(writes: Int, elapsed: Duration, serverFailures: Int) {
        let (whole, fraction) = elapsed.components
        observe(writes: writes, seconds: Double(whole) + Double(fraction) / 1e18, serverFailures: serverFailures)
    }

    /// Learns from a batch of `writes` made `limit` at a time in `seconds`, of which
    /// `serverFailures` failed on the server's side.
    mutating func observe(writes: Int, seconds: Double, serverFailures: Int) {
        guard !settled else { return }
        if serverFailures > 0 {
            if limit > 1 {
                limit = 1
                kept = 1
                settled = true
            }
            return
        }
        guard writes >= Self.minimumSample, seconds > 0 else { return }
        let rate = Double(writes) / seconds
        if isTrying {
            if let base = keptRate, rate >= base * Self.requiredGain {
                kept = limit
                keptRate = rate
                wait = 0
            } else {
                limit = kept
                wait = Self.batchesBeforeRetrial << min(failedTrials, 16)
                failedTrials += 1
                return
            }
        } else {
            keptRate = rate
        }
        if wait > 0 {
            wait -= 1
        } else if kept * 2 <= maximum {
            limit = kept * 2
        }
    }
}
