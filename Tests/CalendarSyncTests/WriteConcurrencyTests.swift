import Testing
@testable import CalendarSync

/// How many writes at once a server gets: found by trying, kept only where faster.
@Suite struct WriteConcurrencyTests {
    @Test func aServerFasterForMoreWritesAtOnceGetsThemUpToItsMaximum() {
        var tuning = WriteConcurrency(maximum: 4)
        #expect(tuning.limit == 1 && !tuning.settled)
        tuning.observe(writes: 128, elapsed: .milliseconds(300), serverFailures: 0)  // 427/s one at a time
        #expect(tuning.limit == 2 && tuning.isTrying)
        tuning.observe(writes: 256, seconds: 0.36, serverFailures: 0)  // 711/s: kept, 4 tried next
        #expect(tuning.limit == 4 && tuning.isTrying)
        tuning.observe(writes: 512, seconds: 0.55, serverFailures: 0)  // 931/s: kept, at the maximum
        #expect(tuning.limit == 4 && !tuning.isTrying)
        tuning.observe(writes: 2048, seconds: 2.2, serverFailures: 0)
        #expect(tuning.limit == 4 && !tuning.isTrying)
    }

    @Test func aServerNotFasterForTwoKeepsOneAndIsTriedAgainLater() {
        var tuning = WriteConcurrency(maximum: 4)
        tuning.observe(writes: 128, seconds: 2.0, serverFailures: 0)  // 64/s
        tuning.observe(writes: 256, seconds: 7.0, serverFailures: 0)  // 37/s: slower, back to one
        #expect(tuning.limit == 1 && !tuning.isTrying && !tuning.settled)
        /// Waits `batches` timed batches at one, then tries two.
        func waitsThenTries(_ batches: Int) {
            for _ in 0..<batches {
                tuning.observe(writes: 512, seconds: 8.0, serverFailures: 0)
                #expect(tuning.limit == 1)
            }
            tuning.observe(writes: 512, seconds: 8.0, serverFailures: 0)
            #expect(tuning.limit == 2 && tuning.isTrying)
        }
        waitsThenTries(WriteConcurrency.batchesBeforeRetrial)
        // Slower again: the next trial waits twice as long.
        tuning.observe(writes: 512, seconds: 14.0, serverFailures: 0)
        #expect(tuning.limit == 1)
        waitsThenTries(2 * WriteConcurrency.batchesBeforeRetrial)
        // This time two at once is faster (the trials met busy moments): kept.
        tuning.observe(writes: 512, seconds: 5.0, serverFailures: 0)
        #expect(tuning.limit == 4 && tuning.isTrying)
    }

    @Test func aGainBelowTheThresholdGoesBackAStep() {
        var tuning = WriteConcurrency(maximum: 4)
        tuning.observe(writes: 100, seconds: 1.0, serverFailures: 0)
        tuning.observe(writes: 200, seconds: 1.0, serverFailures: 0)  // 2×: kept, 4 next
        tuning.observe(writes: 400, seconds: 1.8, serverFailures: 0)  // 222/s: +11 %, not enough
        #expect(tuning.limit == 2 && !tuning.isTrying)
    }

    @Test func aServerFailureWhileSeveralWereInFlightSetsItBackToOne() {
        var tuning = WriteConcurrency(maximum: 4)
        tuning.observe(writes: 128, seconds: 1.0, serverFailures: 0)
        #expect(tuning.limit == 2)
        tuning.observe(writes: 256, seconds: 0.5, serverFailures: 1)
        #expect(tuning.limit == 1 && tuning.settled)
        for _ in 0...(4 * WriteConcurrency.batchesBeforeRetrial) {
            tuning.observe(writes: 512, seconds: 1.0, serverFailures: 0)
        }
        #expect(tuning.limit == 1)
    }

    @Test func failuresOneAtATimeAndSmallBatchesTeachNothing() {
        var tuning = WriteConcurrency(maximum: 4)
        tuning.observe(writes: 128, seconds: 1.0, serverFailures: 3)  // one at a time: not the concurrency's
        tuning.observe(writes: WriteConcurrency.minimumSample - 1, seconds: 0.01, serverFailures: 0)
        #expect(tuning.limit == 1 && !tuning.settled)
        tuning.observe(writes: 128, seconds: 1.0, serverFailures: 0)
        #expect(tuning.limit == 2)
    }

    @Test func aSideThatTakesOneIsSettledFromTheStart() {
        var tuning = WriteConcurrency(maximum: 1)
        tuning.observe(writes: 128, seconds: 1.0, serverFailures: 0)
        #expect(tuning.limit == 1 && tuning.settled)
    }

    @Test func aFixedNumberIsKeptWhateverTheRates() {
        var tuning = WriteConcurrency.fixed(3)
        #expect(tuning.limit == 3 && tuning.settled)
        tuning.observe(writes: 128, seconds: 1.0, serverFailures: 0)
        tuning.observe(writes: 256, seconds: 9.0, serverFailures: 2)
        #expect(tuning.limit == 3)
    }
}
