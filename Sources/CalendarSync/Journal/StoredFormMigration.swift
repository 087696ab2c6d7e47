import Foundation
import GRDB

/// Journal v7: the rows written before rewritten in the forms calgw now writes. Each hash a
/// SHA-256 in hex becomes its bytes (any other text stays), each merge base is packed
/// (``StoredBase``), and settled intent rows lose their members, which nothing reads.
///
/// The file keeps the pages the rows gave up until ``Journal`` vacuums it, once, after this
/// migration ran on a journal with items.
enum StoredFormMigration {
    static let identifier = "v7: hashes as bytes, bases compressed, settled batches without members"

    static func migrate(_ db: Database) throws {
        db.add(
            function: DatabaseFunction("calgw_stored_hash", argumentCount: 1, pure: true) { values in
                guard case .string(let text) = values[0].storage else { return values[0] }
                return ContentHash(text).storedValue
            })
        db.add(
            function: DatabaseFunction("calgw_packed_base", argumentCount: 1, pure: true) { values in
                guard case .blob(let base) = values[0].storage else { return values[0] }
                return StoredBase.pack(base)
            })
        try db.execute(
            sql: """
                UPDATE item SET localHash = calgw_stored_hash(localHash), remoteHash = calgw_stored_hash(remoteHash),
                    base = calgw_packed_base(base);
                UPDATE outsideItem SET hash = calgw_stored_hash(hash);
                UPDATE intent SET members = NULL WHERE state <> 'pending';
                """)
    }
}
