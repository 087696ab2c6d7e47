import Foundation
import Testing
import VDir
@testable import CalendarSync

/// Files that change between the moment a run lists the vdir and the moment it reads them:
/// what is read is the file as it is now, with the signature it has now, and the run acts on
/// that, on real files.
@Suite struct ListingRaceTests {
    @Test func aFileDeletedOrRewrittenAfterListingIsReadAsItIsNow() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = VDirStorage(url: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Fixture.event(uid: "a").write(to: folder.appendingPathComponent("a.ics"))
        try Fixture.event(uid: "b").write(to: folder.appendingPathComponent("b.ics"))
        guard case .full(let listed, _) = try await storage.changes(since: nil) else {
            Issue.record("a first listing is full")
            return
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("a.ics"))
        let rewritten = Fixture.event(uid: "b", summary: "rewritten after the listing")
        try rewritten.write(to: folder.appendingPathComponent("b.ics"))

        let fetched = try await storage.fetch(listed.map(\.href))
        #expect(fetched.map(\.href) == ["b.ics"], "a vanished file is left out, not an error")
        #expect(fetched.first?.data == rewritten)
        #expect(fetched.first?.etag != listed.first { $0.href == "b.ics" }?.etag)
        #expect(fetched.first?.etag.value == FileSignature.of(path: folder.appendingPathComponent("b.ics").path)?.etag)
    }

    @Test func aSyncActsOnWhatTheFilesHoldWhenRead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let local = VDirStorage(url: folder.appendingPathComponent("local"))
        let remote = VDirStorage(url: folder.appendingPathComponent("remote"))
        let journal = try Journal.inMemory()
        try FileManager.default.createDirectory(at: local.directory.url, withIntermediateDirectories: true)
        for uid in ["a", "b", "c"] { try Fixture.event(uid: uid).write(to: local.directory.url.appendingPathComponent("\(uid).ics")) }
        _ = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        // An edit the listing sees, then, before it is read, the person edits it again and
        // deletes another file.
        try Fixture.event(uid: "b", summary: "first edit").write(to: local.directory.url.appendingPathComponent("b.ics"))
        try Fixture.event(uid: "c", summary: "edit").write(to: local.directory.url.appendingPathComponent("c.ics"))
        let racing = RaceAfterListing(inner: local) {
            try? FileManager.default.removeItem(at: local.directory.url.appendingPathComponent("c.ics"))
            try? Fixture.event(uid: "b", summary: "second edit, longer than the first").write(to: local.directory.url.appendingPathComponent("b.ics"))
        }
        let report = try await SyncEngine(local: racing, remote: remote, journal: journal).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let onRemote = try await remote.fetch(try FileManager.default.contentsOfDirectory(atPath: remote.directory.url.path).sorted().map { ItemHref($0) })
        let summaries = Dictionary(uniqueKeysWithValues: onRemote.map { (ItemContent($0.data).key.value, Fixture.text($0.data)) })
        #expect(summaries.keys.sorted() == ["a", "b"], "the deletion reached the other side")
        #expect(summaries["b"]?.contains("SUMMARY:second edit") == true)
        // The journal holds what was read: the next run has nothing to do.
        let again = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(again.created.total + again.updated.total + again.deleted.total == 0, "\(again)")
    }
}

/// A storage that runs `race` once, after its listing and before its first read.
final class RaceAfterListing: CalendarStorage, @unchecked Sendable {
    let inner: VDirStorage
    var race: (() -> Void)?
    init(inner: VDirStorage, race: @escaping () -> Void) {
        self.inner = inner
        self.race = race
    }
    func changes(since token: ChangeToken?) async throws -> StorageChanges { try await inner.changes(since: token) }
    func fetch(_ hrefs: [ItemHref]) async throws -> [StoredItem] {
        if let r = race { race = nil; r() }
        return try await inner.fetch(hrefs)
    }
    func create(_ data: Data, suggestedName: String) async throws -> ItemVersion { try await inner.create(data, suggestedName: suggestedName) }
    func update(href: ItemHref, data: Data, ifMatch etag: ItemETag) async throws -> ItemVersion { try await inner.update(href: href, data: data, ifMatch: etag) }
    func delete(href: ItemHref, ifMatch etag: ItemETag) async throws { try await inner.delete(href: href, ifMatch: etag) }
}
