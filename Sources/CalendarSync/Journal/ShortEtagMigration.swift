import GRDB
import VDir

/// Journals written before vdir etags were shortened hold them as `mtime-ns:size:inode`
/// (``FileSignature/legacyEtag``). This migration rewrites each such etag in the short form the
/// listing now gives, so that the first run after an upgrade reads no file again; and a vdir
/// side's token that vouched for the old rows is recomputed to vouch for the new ones, so that
/// run is still one that lists nothing when nothing changed.
///
/// Etags of other storages (a server's, a single file's) never parse as a signature and stay
/// as they are.
enum ShortEtagMigration {
    static func migrate(_ db: Database) throws {
        db.add(
            function: DatabaseFunction("calgw_short_etag", argumentCount: 1, pure: true) { values in
                guard let etag = String.fromDatabaseValue(values[0]) else { return nil }
                return FileSignature(legacyEtag: etag)?.etag ?? etag
            })
        for side in Side.allCases {
            let etag = side == .local ? "localEtag" : "remoteEtag"
            let before = try listingToken(db, side)
            try db.execute(sql: "UPDATE item SET \(etag) = calgw_short_etag(\(etag)) WHERE \(etag) LIKE '%:%:%'")
            let token = try String.fetchOne(
                db, sql: "SELECT token FROM collection WHERE side = ?", arguments: [side.rawValue])
            if let token, token.hasPrefix("vdir:") {
                let kept = token == before.value ? try listingToken(db, side).value : nil
                try db.execute(sql: "UPDATE collection SET token = ? WHERE side = ?", arguments: [kept, side.rawValue])
            }
        }
        try db.execute(sql: "UPDATE outsideItem SET etag = calgw_short_etag(etag) WHERE etag LIKE '%:%:%'")
    }

    /// The vdir token of the journal's versions of `side` (as `VDirStorage.token(forJournal:side:)`).
    private static func listingToken(_ db: Database, _ side: Side) throws -> ChangeToken {
        var listing = VDirStorage.ListingHash()
        try Journal.forEachVersionText(side, in: db) { listing.add(href: $0, etag: $1) }
        return listing.token
    }
}
