import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// What every `CalendarStorage` must do, run on the vdir and the in-memory storage.
@Suite struct StorageContractTests {
    enum Kind: String, CaseIterable, Sendable { case vdir, memory }

    func make(_ kind: Kind) throws -> (any CalendarStorage, () -> Void) {
        switch kind {
        case .memory: return (InMemoryStorage(), {})
        case .vdir:
            let folder = try TemporaryFolder()
            return (VDirStorage(url: folder.file("cal")), { folder.remove() })
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

        #expect(try await storage.fetch([created.href, "missing.ics"]).map(\.data) == [data])

        let newer = Fixture.event(uid: "a", summary: "v2")
        let updated = try await storage.update(href: created.href, data: newer, ifMatch: created.etag)
        #expect(updated.etag != created.etag)
        await #expect { _ = try await storage.update(href: created.href, data: data, ifMatch: created.etag) } throws: {
            $0 as? StorageError == .preconditionFailed(href: created.href)
        }
        await #expect { try await storage.delete(href: created.href, ifMatch: created.etag) } throws: {
            $0 as? StorageError == .preconditionFailed(href: created.href)
        }
        #expect(try await storage.fetch([created.href]).first?.data == newer)
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
