import Foundation

/// A storage that takes several writes at once. Others get one write at a time.
public protocol ConcurrentWritingStorage: CalendarStorage {
    /// How many writes may be in flight at once.
    var maximumConcurrentWrites: Int { get }
    /// True when more writes at once are worth it only where they are faster, which only
    /// trying tells (a server): the executor then starts with one and finds the number run by
    /// run (`WriteConcurrency`). False: always `maximumConcurrentWrites`.
    var measuresConcurrentWrites: Bool { get }
}

extension ConcurrentWritingStorage {
    /// False: a storage that does not say takes `maximumConcurrentWrites` at once from the start.
    public var measuresConcurrentWrites: Bool { false }
}
