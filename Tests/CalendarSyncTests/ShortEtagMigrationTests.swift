import Foundation
import GRDB
import Testing
import CalgwTestSupport
import VDir
@testable import CalendarSync

/// A journal written before vdir etags were shortened: opening it rewrites them, and the run
/// after the upgrade finds the folder unchanged without reading a file.
@Suite struct ShortEtagMigrationTests {
    @Test func aJournalWithLongEtagsIsRewrittenAndItsTokenStillVouchesForTheFolder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (local, remote) = try folder.vdirPair()
        for i in 0..<30 {
            try Data(TestEvent.ics(uid: "e\(i)", summary: "event \(i)").utf8).write(
                to: local.directory.url.appendingPathComponent("e\(i).ics"))
        }
        let url = folder.file("journal.sqlite")
        _ = try await SyncEngine(local: local, remote: remote, journal: try Journal.open(at: url)).run()

        // Make it the journal an earlier version left: long etags, the token of those, schema v2.
        let queue = try DatabaseQueue(path: url.path)
        try await queue.write { db in
            for side in ["local", "remote"] {
                let href = "\(side)Href", etag = "\(side)Etag"
                var listing = VDirStorage.ListingHash()
                for row in try Row.fetchAll(db, sql: "SELECT key, \(href) FROM item ORDER BY \(href)") {
                    let name: String = row[1]
                    let signature = try #require(
                        FileSignature.of(path: folder.file(side).appendingPathComponent(name).path))
                    try db.execute(
                        sql: "UPDATE item SET \(etag) = ? WHERE key = ?",
                        arguments: [signature.legacyEtag, row[0] as String])
                    listing.add(href: name, etag: signature.legacyEtag)
                }
                try db.execute(
                    sql: "UPDATE collection SET token = ? WHERE side = ?", arguments: [listing.token.value, side])
            }
            try db.execute(
                sql:
                    "INSERT INTO outsideItem (side, href, etag, key, hash) VALUES ('local', 'x.ics', '1:2:3', 'x', 'h')"
            )
            try db.execute(
                sql:
                    "INSERT INTO outsideItem (side, href, etag, key, hash) VALUES ('remote', 'y', '\"server-etag\"', 'y', 'h')"
            )
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v3%'")
        }
        try queue.close()

        let journal = try Journal.open(at: url)
        for side in Side.allCases {
            let storage = side == .local ? local : remote
            for version in try journal.versions(side) {
                let signature = try #require(
                    FileSignature.of(path: storage.directory.url.appendingPathComponent(version.href.value).path))
                #expect(
                    version.etag.value == signature.etag,
                    "\(version.href) on the \(side.rawValue) side keeps \(version.etag)")
            }
            guard case .unchanged = try await storage.changes(since: try journal.collection(side).token) else {
                Issue.record("the \(side.rawValue) token does not vouch for the folder after the migration")
                continue
            }
        }
        #expect(
            try journal.outsideItems(.local).map(\.etag.value) == [
                FileSignature(modificationNanoseconds: 1, size: 2, inode: 3).etag
            ])
        #expect(try journal.outsideItems(.remote).map(\.etag) == ["\"server-etag\""])
        // Those two were only for the migration: this pair has no window.
        try journal.replaceOutsideItems(.local, with: [])
        try journal.replaceOutsideItems(.remote, with: [])

        let report = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(
            report.created[.local] + report.created[.remote] + report.updated[.local] + report.updated[.remote] == 0)
        #expect(report.errors.isEmpty, "\(report.errors)")
    }
}
