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
        db.add(function: DatabaseFunction("calgw_short_etag", argumentCount: 1, pure: true) { values in
            guard let etag = String.fromDatabaseValue(values[0]) else { return nil }
            return FileSignature(legacyEtag: etag)?.etag ?? etag
        })
        for side in Side.allCases {
            let href = side == .local ? "localHref" : "remoteHref", etag = side == .local ? "localEtag" : "remoteEtag"
            let before = try listingToken(db, href: href, etag: etag)
            try db.execute(sql: "UPDATE item SET \(etag) = calgw_short_etag(\(etag)) WHERE \(etag) LIKE '%:%:%'")
            let token = try String.fetchOne(db, sql: "SELECT token FROM collection WHERE side = ?", arguments: [side.rawValue])
            if let token, token.hasPrefix("vdir:") {
                let kept = token == before.value ? try listingToken(db, href: href, etag: etag).value : nil
                try db.execute(sql: "UPDATE collection SET token = ? WHERE side = ?", arguments: [kept, side.rawValue])
            }
        }
        try db.execute(sql: "UPDATE outsideItem SET etag = calgw_short_etag(etag) WHERE etag LIKE '%:%:%'")
    }

    /// The vdir token of the journal's versions of one side, read through a cursor in the
    /// folder's order (as `VDirStorage.token(forJournal:side:)`).
    private static func listingToken(_ db: Database, href: String, etag: String) throws -> ChangeToken {
        var listing = VDirStorage.ListingHash()
        let rows = try Row.fetchCursor(db, sql: "SELECT \(href), \(etag) FROM item ORDER BY \(href)")
        while let row = try rows.next() { listing.add(href: row[0], etag: row[1]) }
        return listing.token
    }
}
