import Foundation

/// Batches of items handed from the thread that reads a response to the task that stores
/// them, at most `capacity` batches ahead: the reader waits (blocking its thread) while the
/// task falls behind, so memory holds a few batches, never the whole answer.
///
/// The reading thread must not be one the storing task needs: the task may not send requests
/// through the same HTTP client while the channel is open.
final class ItemBatchChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var queue: [[StoredItem]] = []
    private var finished = false
    private var failure: Error?
    private var abandoned = false
    private var waiter: CheckedContinuation<[StoredItem]?, Error>?

    init(capacity: Int = 2) { self.capacity = max(1, capacity) }

    /// Hands over a batch, waiting while `capacity` batches are queued.
    /// - Returns: false when the task has given up (the reader should stop).
    func send(_ batch: [StoredItem]) -> Bool {
        condition.lock()
        while queue.count >= capacity && !abandoned { condition.wait() }
        if abandoned {
            condition.unlock()
            return false
        }
        if let waiter {
            self.waiter = nil
            condition.unlock()
            waiter.resume(returning: batch)
            return true
        }
        queue.append(batch)
        condition.unlock()
        return true
    }

    /// No more batches: the read ended, with `error` when it failed.
    func finish(throwing error: Error? = nil) {
        condition.lock()
        finished = true
        if failure == nil { failure = error }
        let waiter = self.waiter
        self.waiter = nil
        let failure = self.failure
        condition.unlock()
        if let waiter {
            if let failure { waiter.resume(throwing: failure) } else { waiter.resume(returning: nil) }
        }
    }

    /// The next batch; nil once the read ended cleanly.
    /// - Throws: the read's error, after the batches sent before it.
    func next() async throws -> [StoredItem]? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[StoredItem]?, Error>) in
            condition.lock()
            if !queue.isEmpty {
                let batch = queue.removeFirst()
                condition.signal()
                condition.unlock()
                continuation.resume(returning: batch)
            } else if finished {
                let failure = self.failure
                condition.unlock()
                if let failure { continuation.resume(throwing: failure) } else { continuation.resume(returning: nil) }
            } else {
                waiter = continuation
                condition.unlock()
            }
        }
    }

    /// The task gives up: a waiting reader wakes and stops.
    func abandon() {
        condition.lock()
        abandoned = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
