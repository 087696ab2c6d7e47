import CalDAV
@testable import CalendarSync
import CalgwTestSupport
import Foundation
import Testing

/// SOGo creates over a taken name whatever `If-None-Match` says, and deletes whatever version
/// is there whatever `If-Match` says (it refuses a stale PUT): the storage, knowing it for SOGo
/// from its answers, looks first, so that what changed on the server since it was read is
/// neither overwritten nor deleted.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SOGoStorageTests {
    @Test(.enabled(if: TestServers.runs("sogo"), "CALGW_TEST_SERVERS leaves sogo out"))
    func aVersionThatChangedIsNeitherOverwrittenNorDeleted() async throws {
        let fixture = try DAVServerFixture("sogo")
        let url = try await fixture.newCalendar("stale")
        let storage = CalDAVStorage(client: fixture.client, collection: url)
        _ = try await storage.changes(since: nil)  // as every run begins: the answer names SOGo
        #expect(storage.facts.product.name == "sogo")
        let uid = TestEvent.uniqueUID()
        let created = try await storage.create(TestEvent.data(uid: uid, end: "20270310T110000Z"), suggestedName: uid)
        await #expect(throws: StorageError.alreadyExists(href: created.href)) {
            _ = try await storage.create(
                TestEvent.data(uid: uid, summary: "Twin", end: "20270310T110000Z"), suggestedName: uid)
        }
        let updated = try await storage.update(
            href: created.href, data: TestEvent.data(uid: uid, summary: "Later", end: "20270310T110000Z"),
            ifMatch: created.etag)
        await #expect(throws: StorageError.preconditionFailed(href: created.href)) {
            _ = try await storage.update(
                href: created.href, data: TestEvent.data(uid: uid, summary: "Stale", end: "20270310T110000Z"),
                ifMatch: created.etag)
        }
        await #expect(throws: StorageError.preconditionFailed(href: created.href)) {
            try await storage.delete(href: created.href, ifMatch: created.etag)
        }
        let kept = try await storage.fetch([created.href])
        let text = String(decoding: kept.first.map(\.data) ?? Data(), as: UTF8.self)
        #expect(text.contains("SUMMARY:Later"), "\(text)")
        try await storage.delete(href: created.href, ifMatch: updated.etag)
        try await storage.delete(href: created.href, ifMatch: updated.etag)  // already gone: done
        #expect(try await storage.fetch([created.href]).isEmpty)
    }

    /// SOGo takes a calendar's colour only as `#RRGGBBAA` (400 "Bad color format" to
    /// `#RRGGBB`): the storage writes the vdir's colour with an opaque alpha, and it reads back
    /// as the same colour.
    @Test(.enabled(if: TestServers.runs("sogo"), "CALGW_TEST_SERVERS leaves sogo out"))
    func aColourIsWrittenInTheFormSOGoTakes() async throws {
        let fixture = try DAVServerFixture("sogo")
        let url = try await fixture.newCalendar("colour")
        let storage = CalDAVStorage(client: fixture.client, collection: url)
        _ = try await storage.changes(since: nil)
        _ = try await storage.metadata()  // as a run reads it before it writes
        try await storage.setMetadata(CollectionMetadata(displayName: "Work", color: "#3366CC"))
        let read = try await storage.metadata()
        #expect(read.displayName == "Work")
        #expect(read.color.map(MetadataMerge.normalizeColor) == MetadataMerge.normalizeColor("#3366CC"), "\(read)")
    }
}
