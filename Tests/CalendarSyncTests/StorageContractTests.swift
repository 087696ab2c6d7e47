import Foundation
import Testing
import CalgwTestSupport
import CalDAV
@testable import CalendarSync
import HTTP

/// What every `CalendarStorage` must do, run on each kind: the vdir, the single file, the
/// in-memory storage, a CalDAV collection on each test server, and an Outlook calendar through
/// the Graph fake. Items read back are compared by content (a single file hands an item back
/// in its own VCALENDAR wrapper).
@Suite(.timeLimit(.minutes(10))) struct StorageContractTests {
    static var kinds: [String] {
        ["vdir", "memory", "singleFile", "graph"] + TestServers.selected.map { "caldav-\($0)" }
    }

    func make(_ kind: String) async throws -> (any CalendarStorage, () -> Void) {
        switch kind {
        case "memory": return (InMemoryStorage(), {})
        case "vdir":
            let folder = try TemporaryFolder()
            return (VDirStorage(url: folder.file("cal")), { folder.remove() })
        case "singleFile":
            let folder = try TemporaryFolder()
            return (SingleFileStorage(url: folder.file("cal/calendar.ics")), { folder.remove() })
        case "graph":
            let graph = try await TestGraphServer()
            let made = try await graph.graph("POST", "/me/calendars", json: ["name": "Contract"])
            guard let id = (made.body as? [String: Any])?["id"] as? String else {
                graph.stop()
                throw FixtureFailure("the Graph fake made no calendar: \(made)")
            }
            let token = graph.token
            let http = try HTTPClient(configuration: .init(authentication: .bearer(BearerTokenProvider { token })))
            let calendar = graph.url.appendingPathComponent("me/calendars/\(id)")
            return (try GraphStorage(http: http, calendar: calendar), { graph.stop() })
        default:
            let server = try TestServers.shared(String(kind.dropFirst("caldav-".count)))
            let client = try CalDAVClient(
                configuration: .init(
                    http: .init(
                        authentication: .basic(
                            username: server.username,
                            password: server.password))))
            let collection = server.newCollectionURL(prefix: "contract")
            try await client.makeCalendar(collection)
            return (CalDAVStorage(client: client, collection: collection), {})
        }
    }

    /// The items a storage holds after `changes`, given what it held at the token asked about.
    static func listing(_ changes: StorageChanges, before: [ItemVersion]) -> [ItemVersion]? {
        switch changes {
        case .unchanged: return before
        case .full(let all, _): return all
        case .delta(let changed, let removed, _):
            let touched = Set(changed.map(\.href)).union(removed)
            return (before.filter { !touched.contains($0.href) } + changed).sorted { $0.href < $1.href }
        }
    }

    /// Whether `changes`, asked with the token of a listing of `known`, says nothing changed: as
    /// `unchanged`, or as a delta that names only versions already listed (SOGo's token is the
    /// second of the latest change, compared with ≥, so its newest item comes back each time;
    /// the engine fetches nothing for a version it holds).
    static func saysNothingNew(_ changes: StorageChanges, since known: [ItemVersion]) -> Bool {
        switch changes {
        case .unchanged: true
        case .delta(let changed, let removed, _): removed.isEmpty && changed.allSatisfy(known.contains)
        case .full: false
        }
    }

    /// Whether `stored` is what writing `written` leaves in `storage`: the same content, or for
    /// a storage that adds to what it keeps (SOGo's `CLASS:PUBLIC`), the same with its additions.
    static func holds(_ storage: any CalendarStorage, _ stored: Data, afterWriting written: Data) async throws -> Bool {
        let hash = ContentHash.of(written)
        guard let rewriting = storage.capabilities.rewriting else { return ContentHash.of(stored) == hash }
        return try await rewriting.holds(stored, afterWriting: hash)
    }

    static func token(_ changes: StorageChanges) -> ChangeToken? {
        switch changes {
        case .unchanged(let t): t
        case .full(_, let t), .delta(_, _, let t): t
        }
    }

    @Test(arguments: kinds)
    func contract(kind: String) async throws {
        let (storage, cleanup) = try await make(kind)
        defer { cleanup() }
        let data = TestEvent.data(uid: "a", duration: "PT1H")

        guard case .full(let empty, let token0) = try await storage.changes(since: nil) else {
            Issue.record("\(kind): first listing is full"); return
        }
        #expect(empty.isEmpty, "\(kind)")
        let created = try await storage.create(data, suggestedName: "a")
        // A storage that names its items itself (Graph: the event's id) need not use the name given.
        if storage.capabilities.serverNamed == nil {
            #expect(created.href.value.hasSuffix(".ics"), "\(kind): \(created.href)")
        }
        // The same item created again makes no second item: a storage that names items itself
        // (Graph) may answer with the item made (a create retried after a lost answer is the
        // same create); others refuse the taken name.
        if storage.capabilities.serverNamed != nil {
            do {
                let again = try await storage.create(data, suggestedName: "a")
                #expect(again.href == created.href, "\(kind): a second item \(again.href) besides \(created.href)")
            } catch let error as StorageError {
                #expect(error == .alreadyExists(href: created.href), "\(kind): \(error)")
            }
        } else {
            await #expect { _ = try await storage.create(data, suggestedName: "a") } throws: {
                $0 as? StorageError == .alreadyExists(href: created.href)
            }
        }

        let changed = try await storage.changes(since: token0)
        if case .unchanged = changed { Issue.record("\(kind): a change was not seen") }
        #expect(Self.listing(changed, before: empty) == [created], "\(kind): \(changed)")
        let token1 = Self.token(changed)
        if let token1 {
            let again = try await storage.changes(since: token1)
            #expect(Self.saysNothingNew(again, since: [created]), "\(kind): unchanged after no change: \(again)")
        }

        let fetched = try await storage.fetch([created.href, "missing.ics"])
        #expect(fetched.map(\.href) == [created.href], "\(kind)")
        let first = try #require(fetched.first, "\(kind)")
        #expect(try await Self.holds(storage, first.data, afterWriting: data), "\(kind): the bytes read back differ")

        let newer = TestEvent.data(uid: "a", summary: "v2", duration: "PT1H")
        let updated = try await storage.update(href: created.href, data: newer, ifMatch: created.etag)
        #expect(updated.etag != created.etag, "\(kind)")
        await #expect { _ = try await storage.update(href: created.href, data: data, ifMatch: created.etag) } throws: {
            $0 as? StorageError == .preconditionFailed(href: created.href)
        }
        await #expect { try await storage.delete(href: created.href, ifMatch: created.etag) } throws: {
            $0 as? StorageError == .preconditionFailed(href: created.href)
        }
        let current = try #require(try await storage.fetch([created.href]).first, "\(kind)")
        #expect(try await Self.holds(storage, current.data, afterWriting: newer), "\(kind)")
        try await storage.delete(href: created.href, ifMatch: updated.etag)
        try await storage.delete(href: created.href, ifMatch: updated.etag)  // already gone
        #expect(try await storage.fetch([created.href]).isEmpty, "\(kind)")
        let after = try await storage.changes(since: token1)
        #expect(Self.listing(after, before: [updated])?.isEmpty == true, "\(kind): \(after)")
    }

    @Test func vdirCreateUsesSafeNamesOnly() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let storage = VDirStorage(url: folder.file("cal"))
        let v = try await storage.create(TestEvent.data(uid: "x", duration: "PT1H"), suggestedName: "../../evil name")
        #expect(!v.href.value.contains("/") && !v.href.value.hasPrefix("."))
        #expect(FileManager.default.fileExists(atPath: folder.file("cal/\(v.href)").path))
    }

    /// A batch of creates answers item for item, in order, as one create each would: a taken
    /// name fails alone and keeps its file, the folder is made on the first write, and every
    /// file holds its own bytes with the etag a listing reports.
    @Test func vdirCreatesABatchAsOneCreateEachWould() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let storage = VDirStorage(url: folder.file("cal"))
        let items = (0..<300).map {
            (data: TestEvent.data(uid: "u\($0)", summary: "item \($0)", duration: "PT1H"), suggestedName: "u\($0)")
        }
        let first = await storage.createAll(items)
        #expect(first.count == 300)
        let versions = first.compactMap { try? $0.get() }
        #expect(versions.map(\.href) == (0..<300).map { "u\($0).ics" })

        let taken = try Data(contentsOf: folder.file("cal/u7.ics"))
        let second = await storage.createAll([
            (
                TestEvent.data(uid: "v1", duration: "PT1H"),
                "v1"
            ),
            (
                TestEvent.data(uid: "other", duration: "PT1H"),
                "u7"
            ), (TestEvent.data(uid: "v2", duration: "PT1H"), "v2"),
        ])
        #expect((try? second[0].get())?.href == "v1.ics" && (try? second[2].get())?.href == "v2.ics")
        guard case .failure(StorageError.alreadyExists(let href)) = second[1] else {
            Issue.record("a taken name did not fail with alreadyExists: \(second[1])")
            return
        }
        #expect(href == "u7.ics")
        #expect(try Data(contentsOf: folder.file("cal/u7.ics")) == taken)

        guard case .full(let listed, _) = try await storage.changes(since: nil) else {
            Issue.record("a first listing was not full")
            return
        }
        #expect(listed.count == 302)
        let etags = Dictionary(uniqueKeysWithValues: listed.map { ($0.href, $0.etag) })
        for (item, version) in zip(items, versions) {
            #expect(etags[version.href] == version.etag)
            #expect(try Data(contentsOf: folder.file("cal/\(version.href)")) == item.data)
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct BulkFetchTests {
    @Test func aFirstSyncReadsEverythingInOnePass() async throws {
        let remote = BulkStorage()
        for i in 0..<250 { remote.inner.put("e\(i).ics", TestEvent.data(uid: "e\(i)", duration: "PT1H")) }
        let local = InMemoryStorage()
        let journal = try Journal.inMemory()
        let report = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(report.created.local == 250)
        #expect(remote.bulkReads == 1)
        #expect(remote.fetches == 0)
        // Later runs list changes instead.
        remote.inner.put("e1.ics", TestEvent.data(uid: "e1", summary: "changed", duration: "PT1H"))
        _ = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(remote.bulkReads == 1)
        #expect(remote.fetches == 1)
    }
}
