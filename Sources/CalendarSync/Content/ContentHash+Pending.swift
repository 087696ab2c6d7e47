import CChecksum
import Foundation

extension ContentHash {
    /// The stand-in a first pull records for an item it copies into an empty folder: an
    /// identity of the exact bytes copied (`cchecksum_identity`: CRC-32C lanes, the length and
    /// a multiplied mix; 1,400 instructions an event of the benchmark's varied corpus, where
    /// writing it normalised and hashing that took about 43,000).
    ///
    /// Both sides of the item hold those bytes, and the journal's base is them, so the hash
    /// proper can be made from the base whenever it is needed: when a side of the item changes
    /// (``SyncEngine/settlingPendingHashes(_:local:remote:journal:)``). Until then nothing
    /// compares it with another item's hash: a side whose etag did not move keeps the
    /// journal's value, which equals itself.
    public static func pending(for data: Data) -> ContentHash {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        data.withUnsafeBytes { bytes in
            withUnsafeMutableBytes(of: &words) { out in
                cchecksum_identity(
                    out.baseAddress!.assumingMemoryBound(to: UInt64.self), bytes.baseAddress, bytes.count)
            }
        }
        let bigEndian = (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian, words.3.bigEndian)
        return withUnsafeBytes(of: bigEndian) { ContentHash(digest: $0, form: .pending) }
    }

    /// True when `data` is what this hash was made of: for a pending hash, the very bytes;
    /// for any other, content with the same hash. How recovery and a create that finds its
    /// name taken tell their own earlier write.
    public func describes(_ data: Data) -> Bool {
        isPending ? Self.pending(for: data) == self : Self.of(data) == self
    }
}
