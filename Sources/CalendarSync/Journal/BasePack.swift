import Foundation
import GRDB

/// Merge bases compressed together: the bases of a first pull's batch, in packs of up to
/// ``members``, each pack one stored base (``StoredBase``) in a row of the `basePack` table,
/// each item's row keeping where its own is in it.
///
/// Compressed alone, a kilobyte of event cost about 42,000 instructions and kept 344 bytes
/// (the varied benchmark corpus, a C program over 2,000 of its events with the shipped
/// dictionary); 128 of them compressed as one cost about 22,600 each and keep 142 (2,048: 16,500
/// and 130). What one compression costs is mostly setting up for its input, and events repeat
/// each other's text far more than the dictionary can: without it, 128 cost about 16,600 each
/// and keep 146; as LZ4 keeps them (``StoredBase/packTogether(_:)``), about 5,100 and 214. A
/// first pull writes every item's base at once, so its batches are packed; every later write
/// of a base stores it alone, as before.
///
/// Reading one base reads its pack whole: at most ``limit`` bytes, about 128 KB for events
/// (326,000 instructions as LZ4, 925,000 as Zstandard: a tenth of a millisecond), which is why
/// packs are not made larger: a mass deletion's check
/// reads the base of every item it would delete. Packs read are kept by the journal, within a
/// budget (``Journal/PackCache``). A pack lives while a row refers to it: the rows that replace
/// or drop bases are followed by ``releaseUnused(_:)`` in the same transaction.
enum BasePack {
    /// The most bases one pack holds.
    static let members = 128
    /// The most bytes of bases one pack holds (items with large attachments).
    static let limit = 1 << 20
    /// The fewest bases worth a pack: fewer are stored alone.
    static let fewest = 8

    /// What an item row stores for its base: the `base` column and the `basePack` column.
    struct Stored {
        var base: Data
        var pack: Int64? = nil
    }

    /// Stores `bases` (none empty) in packs in the `basePack` table, in order.
    /// - Returns: for each base, in order, what its row stores.
    static func write(_ bases: [Data], _ db: Database) throws -> [Stored] {
        var stored: [Stored] = []
        stored.reserveCapacity(bases.count)
        var start = 0
        while start < bases.count {
            var end = start
            var size = 0
            while end < bases.count, end - start < members, end == start || size + bases[end].count <= limit {
                size += bases[end].count
                end += 1
            }
            try write(bases[start..<end], size: size, db, into: &stored)
            start = end
        }
        return stored
    }

    /// Stores one pack of `bases` (their sizes adding up to `size`), or each alone when they
    /// are too few.
    private static func write(_ bases: ArraySlice<Data>, size: Int, _ db: Database, into stored: inout [Stored])
        throws
    {
        guard bases.count >= fewest else {
            stored += bases.map { Stored(base: StoredBase.pack($0)) }
            return
        }
        var joined = Data(capacity: size)
        var members: [Range<Int>] = []
        members.reserveCapacity(bases.count)
        for base in bases {
            members.append(joined.count..<joined.count + base.count)
            joined.append(base)
        }
        try db.execute(sql: "INSERT INTO basePack (data) VALUES (?)", arguments: [StoredBase.packTogether(joined)])
        let id = db.lastInsertedRowID
        for member in members { stored.append(Stored(base: reference(to: member), pack: id)) }
    }

    /// What a member's row stores as its base: the form, then where it is in the pack (offset
    /// and length, four bytes each, little-endian).
    static func reference(to member: Range<Int>) -> Data {
        var out = Data([StoredBase.Form.packMember.rawValue])
        withUnsafeBytes(of: UInt32(member.lowerBound).littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(member.count).littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// Where the member a row's `base` refers to is in its pack; nil when `base` is not a reference.
    static func member(_ base: Data) -> Range<Int>? {
        guard base.count == 9, base.first == StoredBase.Form.packMember.rawValue else { return nil }
        return base.withUnsafeBytes { bytes in
            let offset = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 1, as: UInt32.self)))
            let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 5, as: UInt32.self)))
            return offset..<offset + length
        }
    }

    /// The bases of pack `id`, one after another; nil when there is no such pack or it cannot be read.
    static func read(_ id: Int64, _ db: Database) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT data FROM basePack WHERE id = ?", arguments: [id]).flatMap(StoredBase.unpack)
    }

    /// Drops the packs no row refers to any longer (a probe of the partial index `itemBasePack`
    /// for each pack: a few dozen for 100,000 items).
    static func releaseUnused(_ db: Database) throws {
        try db.cachedStatement(
            sql: "DELETE FROM basePack WHERE NOT EXISTS (SELECT 1 FROM item WHERE item.basePack = basePack.id)"
        ).execute()
    }
}
