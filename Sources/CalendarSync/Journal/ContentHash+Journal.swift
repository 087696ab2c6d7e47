import Foundation
import GRDB

/// How the journal keeps a hash: a SHA-256 as its bytes (a BLOB of 32, or 33 for a `raw:`
/// one), half of its 64 hex digits and without a string to make when read. Journals written
/// before v7 held the hex text, which the v7 migration rewrote; a hash that is no SHA-256 (a
/// test's made-up one) is still kept as its text, so a column may hold either.
extension ContentHash {
    /// The value a journal column stores for this hash.
    var storedValue: DatabaseValue {
        withStoredBytes { bytes in bytes.map { Data($0).databaseValue } ?? value.databaseValue }
    }

    /// The hash a journal column holds, as bytes or as text.
    static func stored(_ value: DatabaseValue) -> ContentHash {
        switch value.storage {
        case .blob(let data):
            data.withUnsafeBytes { ContentHash(storedBytes: $0) } ?? ContentHash(hex(data))
        case .string(let text): ContentHash(text)
        default: ContentHash("")
        }
    }
}
