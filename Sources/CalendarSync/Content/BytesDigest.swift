import Crypto
import Foundation

/// The first 128 bits of a SHA-256 of an item's bytes, read with each CRLF as an LF, as the
/// parser reads them: two items with one digest parse alike, so what one of them is (its UID,
/// hash, time span) is what the other is, without parsing it again.
struct BytesDigest: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    init(_ data: Data) {
        var hasher = SHA256()
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress else { return }
            let count = raw.count
            // The runs between the CRs that end a line are hashed; those CRs are left out.
            var start = 0, from = 0
            while from < count, let found = memchr(base + from, 0x0D, count - from) {
                let at = base.distance(to: UnsafeRawPointer(found))
                if at + 1 < count && raw[at + 1] == 0x0A {
                    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: raw[start..<at]))
                    start = at + 1
                }
                from = at + 1
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: raw[start..<count]))
        }
        (high, low) = hasher.finalize().withUnsafeBytes {
            ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }
}
