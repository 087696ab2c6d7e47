import Foundation
import Testing
import CalgwTestSupport
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
        try TestEvent.data(uid: "a", duration: "PT1H").write(to: folder.appendingPathComponent("a.ics"))
        try TestEvent.data(uid: "b", duration: "PT1H").write(to: folder.appendingPathComponent("b.ics"))
        guard case .full(let listed, _) = try await storage.changes(since: nil) else {
            Issue.record("a first listing is full")
            return
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("a.ics"))
        let rewritten = TestEvent.data(uid: "b", summary: "rewritten after the listing", duration: "PT1H")
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
        for uid in ["a", "b", "c"] {
            try TestEvent.data(uid: uid, duration: "PT1H").write(
                to: local.directory.url.appendingPathComponent("\(uid).ics"))
        }
        _ = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        // An edit the listing sees, then, before it is read, the person edits it again and
        // deletes another file.
        try TestEvent.data(uid: "b", summary: "first edit", duration: "PT1H").write(
            to: local.directory.url.appendingPathComponent("b.ics"))
        try TestEvent.data(uid: "c", summary: "edit", duration: "PT1H").write(
            to: local.directory.url.appendingPathComponent("c.ics"))
        let racing = RacingStorage(inner: local, .beforeFirstFetch) {
            try? FileManager.default.removeItem(at: local.directory.url.appendingPathComponent("c.ics"))
            try? TestEvent.data(uid: "b", summary: "second edit, longer than the first", duration: "PT1H")
                .write(to: local.directory.url.appendingPathComponent("b.ics"))
        }
        let report = try await SyncEngine(local: racing, remote: remote, journal: journal).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let onRemote = try await remote.fetch(
            try FileManager.default.contentsOfDirectory(atPath: remote.directory.url.path).sorted().map { ItemHref($0) }
        )
        let summaries = Dictionary(
            uniqueKeysWithValues: onRemote.map {
                (ItemContent($0.data).key.value, String(decoding: $0.data, as: UTF8.self))
            })
        #expect(summaries.keys.sorted() == ["a", "b"], "the deletion reached the other side")
        #expect(summaries["b"]?.contains("SUMMARY:second edit") == true)
        // The journal holds what was read: the next run has nothing to do.
        let again = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(again.created.total + again.updated.total + again.deleted.total == 0, "\(again)")
    }
}
