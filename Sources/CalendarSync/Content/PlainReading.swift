import ICalendar
import Synchronization

/// The room reading an item plainly works in: the canonical writer's buffers and the reader's
/// (``PlainItemReader/Scratch``). A first pull reads every item it fetches, on every core; each
/// read borrows a room from a few kept between reads, where making its own cost eleven
/// allocations and as many frees an item. Unchecked sendable: a room is lent to one read at a
/// time, and kept, or lent again, only after that read.
final class PlainReading: @unchecked Sendable {
    /// Read and written by one read at a time (the one that borrowed the room), so its
    /// accesses are not checked for overlap at run time: a dozen an item's line.
    @exclusivity(unchecked) var writer = NormalisedWriter(canonicalizing: true)
    let scratch = PlainItemReader.Scratch()
    /// Where a meeting party's parameters are written without their scheduling parameters.
    @exclusivity(unchecked) var parameters: [UInt8] = []

    /// The rooms not lent; a few more than the cores that read at once. Rooms of reads that
    /// write the hash and of reads that do not are kept apart: the writer of a room remembers
    /// the zones its reader remembers, and a read without the writer would leave the two apart.
    private static let kept = Mutex<[PlainReading]>([])
    private static let keptWithoutHashing = Mutex<[PlainReading]>([])

    /// A room grown past this by a large item (an attachment) is let go, not kept.
    static let keptFootprint = 1 << 20

    /// `body` with a room no other read is using (a read empties it after itself).
    /// - Parameter hashing: the read writes the hash (false: it reads the outline only).
    static func lend<T>(hashing: Bool = true, _ body: (PlainReading) -> T) -> T {
        let taken = hashing ? kept.withLock { $0.popLast() } : keptWithoutHashing.withLock { $0.popLast() }
        let reading = taken ?? PlainReading()
        defer {
            if reading.writer.footprint + reading.scratch.footprint + reading.parameters.capacity <= keptFootprint {
                if hashing {
                    kept.withLock { if $0.count < 16 { $0.append(reading) } }
                } else {
                    keptWithoutHashing.withLock { if $0.count < 16 { $0.append(reading) } }
                }
            }
        }
        return body(reading)
    }
}
