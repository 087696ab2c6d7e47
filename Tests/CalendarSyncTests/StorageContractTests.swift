import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// What every `CalendarStorage` must do, run on the vdir, the single file and the in-memory storage.
@Suite struct StorageContractTests {
    enum Kind: String, CaseIterable, Sendable {
        case vdir, memory, singleFile

        /// Whether `fetch` hands back the bytes written; a single file hands back the item as
        /// its file holds it (its own VCALENDAR wrapper), equal in content.
        var keepsBytes: Bool { self != .singleFile }
    }

    func make(_ kind: Kind) throws -> (any CalendarStorage, () -> Void) {
        switch kind {
        case .memory: return (InMemoryStorage(), {})
        case .vdir:
            let folder = try TemporaryFolder()
            return (VDirStorage(url: folder.file("cal")), { folder.remove() })
        case .singleFile:
            let folder = try TemporaryFolder()
            return (SingleFileStorage(url: folder.file("cal/calendar.ics")), { folder.remove() })
        }
    }

    @Test(arguments: Kind.allCases)
    func contract(kind: Kind) async throws {
        let (storage, cleanup) = try make(kind)
        defer { cleanup() }
        let data = Fixture.event(uid: "a")

        guard case .full(let empty, let token0) = try await storage.changes(since: nil) else { Issue.record("first listing is full"); return }
        #expect(empty.isEmpty)
        let created = try await storage.create(data, suggestedName: "a")
        #expect(created.href.hasSuffix(".ics"))
        await #expect { _ = try await storage.create(data, suggestedName: "a") } throws: { $0 as? StorageError == .alreadyExists(href: created.href) }

        guard case .full(let listed, let token1) = try await storage.changes(since: token0) else { Issue.record("changed listing"); return }
        #expect(listed == [created])
        if case .unchanged = try await storage.changes(since: token1) {} else { Issue.record("unchanged after no change") }

        let fetched = try await storage.fetch([created.href, "missing.ics"])
        #expect(fetched.map(\.version) == [created])
        if kind.keepsBytes {
            #expect(fetched.map(\.data) == [data])
        } else {
            #expect(fetched.map { ContentHash.of($0.data) } == [ContentHash.of(data)])
        }

        let newer = Fixture.event(uid: "a", summary: "v2")
        let updated = try await storage.update(href: created.href, data: newer, ifMatch: created.etag)
        #expect(updated.etag != created.etag)
        await #expect { _ = try await storage.update(href: created.href, data: data, ifMatch: created.etag) } throws: {
            $0 as? StorageError == .preconditionFailed(href: created.href)
        }
        await #expect { try await storage.delete(href: created.href, ifMatch: created.etag) } throws: {
            $0 as? StorageError == .preconditionFailed(href: created.href)
        }
        let current = try #require(try await storage.fetch([created.href]).first)
        #expect(kind.keepsBytes ? current.data == newer : ContentHash.of(current.data) == ContentHash.of(newer))
        try await storage.delete(href: created.href, ifMatch: updated.etag)
        try await storage.delete(href: created.href, ifMatch: updated.etag)  // already gone
        #expect(try await storage.fetch([created.href]).isEmpty)
    }

    @Test func vdirCreateUsesSafeNamesOnly() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let storage = VDirStorage(url: folder.file("cal"))
        let v = try await storage.create(Fixture.event(uid: "x"), suggestedName: "../../evil name")
        #expect(!v.href.contains("/") && !v.href.hasPrefix("."))
        #expect(FileManager.default.fileExists(atPath: folder.file("cal/\(v.href)").path))
    }
}

/// An in-memory storage that also answers `fetchAll`, counting how it was read.
final class BulkStorage: BulkFetchingStorage, @unchecked Sendable {
    let inner = InMemoryStorage()
    var bulkReads = 0, fetches = 0
    func fetchAll() async throws -> (items: [StoredItem], token: ChangeToken?) {
        bulkReads += 1
        guard case .full(let versions, let token) = try await inner.changes(since: nil) else { return ([], nil) }
        return (try await inner.fetch(versions.map(\.href)), token)
    }
    func changes(since token: ChangeToken?) async throws -> StorageChanges { try await inner.changes(since: token) }
    func fetch(_ hrefs: [String]) async throws -> [StoredItem] { fetches += 1; return try await inner.fetch(hrefs) }
    func create(_ data: Data, suggestedName: String) async throws -> ItemVersion { try await inner.create(data, suggestedName: suggestedName) }
    func update(href: String, data: Data, ifMatch etag: String) async throws -> ItemVersion { try await inner.update(href: href, data: data, ifMatch: etag) }
    func delete(href: String, ifMatch etag: String) async throws { try await inner.delete(href: href, ifMatch: etag) }
}

@Suite struct BulkFetchTests {
    @Test func aFirstSyncReadsEverythingInOnePass() async throws {
        let remote = BulkStorage()
        for i in 0..<250 { remote.inner.put("e\(i).ics", Fixture.event(uid: "e\(i)")) }
        let local = InMemoryStorage()
        let journal = try Journal.inMemory()
        let report = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(report.created.local == 250)
        #expect(remote.bulkReads == 1)
        #expect(remote.fetches == 0)
        // Later runs list changes instead.
        remote.inner.put("e1.ics", Fixture.event(uid: "e1", summary: "changed"))
        _ = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(remote.bulkReads == 1)
        #expect(remote.fetches == 1)
    }
}
