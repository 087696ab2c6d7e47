import Foundation

/// A storage that may hold writes back and makes them durable on `flush()` (a vdir syncs its
/// folder once per batch instead of once per file). The executor flushes after each batch,
/// before recording its outcomes.
public protocol FlushingStorage: CalendarStorage {
    /// Makes durable every write made so far.
    func flush() async throws
    /// True when `flush()` may run while later writes are made, and then makes durable at
    /// least every write that ended before it was called: the executor then writes the next
    /// batch while the one before is flushed.
    var flushesWhileWriting: Bool { get }
}

extension FlushingStorage {
    /// False: a storage that does not say is flushed before the next batch is written.
    public var flushesWhileWriting: Bool { false }
}
