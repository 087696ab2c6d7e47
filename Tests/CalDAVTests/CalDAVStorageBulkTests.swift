import CalDAV
import CalendarSync
import CalgwTestSupport
import Foundation
import Testing

/// `CalDAVStorage` as `BulkFetchingStorage` and `CollectionMetadataStorage`, and the CRLF
/// line ends of what it hands on, on real servers.
@Suite(.timeLimit(.minutes(10))) struct CalDAVStorageBulkTests {
    private func storage(_ name: String, prefix: String) async throws -> CalDAVStorage {
        let fixture = try DAVServerFixture(name)
        let url = try await fixture.newCalendar(prefix)
        return CalDAVStorage(client: fixture.client, collection: url)
    }

    /// Offsets of LF bytes not preceded by CR.
    private func bareLineFeeds(_ data: Data) -> Int {
        let bytes = [UInt8](data)
        return bytes.indices.filter { bytes[$0] == 0x0A && ($0 == 0 || bytes[$0 - 1] != 0x0D) }.count
    }

    @Test(arguments: TestServers.selected)
    func testFetchedItemsHaveCRLFLineEnds(server name: String) async throws {
        let storage = try await storage(name, prefix: "st-crlf")
        let uid = TestEvent.uniqueUID()
        let created = try await storage.create(TestEvent.data(uid: uid, end: "20260310T110000Z"), suggestedName: uid)
        let fetched = try await storage.fetch([created.href])
        #expect(fetched.count == 1)
        for item in fetched {
            #expect(bareLineFeeds(item.data) == 0, "\(name): multiget data has bare LFs")
            #expect(String(decoding: item.data, as: UTF8.self).contains("UID:\(uid)\r\n"))
        }
        let all = try await storage.fetchAll().items
        #expect(all.count == 1)
        for item in all {
            #expect(bareLineFeeds(item.data) == 0, "\(name): calendar-query data has bare LFs")
            #expect(String(decoding: item.data, as: UTF8.self).hasSuffix("END:VCALENDAR\r\n"))
        }
    }

    @Test(arguments: TestServers.selected)
    func testFetchAllReturnsEveryItemWithDataAndAUsableToken(server name: String) async throws {
        let storage = try await storage(name, prefix: "st-bulk")
        var created: [String: ItemVersion] = [:]
        for day in 1...5 {
            let uid = TestEvent.uniqueUID()
            let date = String(format: "202603%02d", day)
            let event = TestEvent.data(
                uid: uid, summary: "Bulk \(day)", start: "\(date)T100000Z", end: "\(date)T110000Z")
            created[uid] = try await storage.create(event, suggestedName: uid)
        }
        let (items, token) = try await storage.fetchAll()
        #expect(
            Set(items.map(\.version)) == Set(created.values), "\(name): bulk versions differ from the ones PUT returned"
        )
        for (uid, version) in created {
            let item = items.first { $0.href == version.href }
            #expect(
                item.map { String(decoding: $0.data, as: UTF8.self).contains("UID:\(uid)") } == true, "\(name): \(uid)")
        }
        let token1 = try #require(token, "\(name): no change token")

        let (uid0, v0) = try #require(created.first)
        let updated = try await storage.update(
            href: v0.href, data: TestEvent.data(uid: uid0, summary: "Changed", end: "20260310T110000Z"),
            ifMatch: v0.etag)
        switch try await storage.changes(since: token1) {
        case .delta(let changed, let removed, _):
            #expect(changed.contains(updated), "\(name): \(changed)")
            #expect(removed.isEmpty)
        case .full(let versions, _):
            #expect(versions.contains(updated))
            #expect(versions.count == created.count)
        case .unchanged:
            Issue.record("\(name): an update after fetchAll reported as unchanged")
        }
    }

    @Test(arguments: TestServers.selected)
    func testFetchAllOfAnEmptyCollection(server name: String) async throws {
        let storage = try await storage(name, prefix: "st-bulk0")
        let (items, _) = try await storage.fetchAll()
        #expect(items.isEmpty)
    }

    @Test(arguments: TestServers.selected)
    func testMetadataRoundTrip(server name: String) async throws {
        let storage = try await storage(name, prefix: "st-meta")
        let before = try await storage.metadata()
        #expect(before.displayName == "Test st-meta", "\(name): \(before)")
        try await storage.setMetadata(CollectionMetadata(displayName: "Work Ünïcode", color: "#12AB34"))
        let after = try await storage.metadata()
        #expect(after.displayName == "Work Ünïcode")
        let color = after.color?.lowercased()
        #expect(color == "#12ab34" || color == "#12ab34ff", "\(name): \(String(describing: after.color))")
        // Only the name: the color stays.
        try await storage.setMetadata(CollectionMetadata(displayName: "Renamed"))
        let renamed = try await storage.metadata()
        #expect(renamed.displayName == "Renamed")
        #expect(
            renamed.color?.lowercased().hasPrefix("#12ab34") == true, "\(name): \(String(describing: renamed.color))")
    }

    /// `count` events made in parallel (`Item 0` …), each on a day of the month.
    private func fill(_ storage: CalDAVStorage, count: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for day in 0..<count {
                group.addTask {
                    let uid = TestEvent.uniqueUID()
                    let date = String(format: "202603%02d", day % 28 + 1)
                    _ = try await storage.create(
                        TestEvent.data(
                            uid: uid, summary: "Item \(day)", start: "\(date)T100000Z", end: "\(date)T110000Z"),
                        suggestedName: uid)
                }
            }
            try await group.waitForAll()
        }
    }

    /// The paged read (listing, then multigets page by page) hands over every item once, in
    /// pages no larger than asked, with the items a calendar-query returns and a token under
    /// which nothing changed.
    @Test(arguments: TestServers.selected)
    func testFetchInPagesHandsOverEveryItemOncePageByPage(server name: String) async throws {
        let storage = try await storage(name, prefix: "st-pages")
        let page = TestLoad.size(10, load: 100)
        try await fill(storage, count: page * 5 / 2)
        var pages: [[StoredItem]] = []
        let token = try await storage.fetchInPages(batchSize: page) { pages.append($0) }
        #expect(pages.map(\.count) == [page, page, page / 2], "\(name): pages of \(pages.map(\.count))")
        let paged = pages.flatMap { $0 }
        #expect(Set(paged.map(\.href)).count == page * 5 / 2)
        #expect(paged.allSatisfy { bareLineFeeds($0.data) == 0 })
        let queried = try await storage.fetchAll().items
        #expect(Set(paged) == Set(queried), "\(name): the paged read and the calendar-query differ")
        let token2 = try #require(token)
        switch try await storage.changes(since: token2) {
        case .unchanged: break
        case .delta(let changed, let removed, _):
            // Only versions already handed over (SOGo lists its newest item again: its token is
            // the second of the latest change).
            let known = Set(paged.map(\.version))
            #expect(changed.allSatisfy(known.contains) && removed.isEmpty, "\(name): \(changed) \(removed)")
        case .full(let all, _): #expect(Set(all.map(\.href)) == Set(paged.map(\.href)))
        }
    }

    /// The calendar-query and the listing + multiget hand over the same items (their speeds
    /// are compared in Scripts/bench/caldav).
    @Test(arguments: TestServers.selected)
    func testFetchAllMatchesListingAndMultiget(server name: String) async throws {
        let storage = try await storage(name, prefix: "st-bulkcmp")
        let count = TestLoad.size(30, load: 300)
        try await fill(storage, count: count)
        let bulk = try await storage.fetchAll().items
        guard case .full(let versions, _) = try await storage.changes(since: nil) else {
            Issue.record("\(name): not a full listing")
            return
        }
        let listed = try await storage.fetch(versions.map(\.href))
        #expect(bulk.count == count)
        #expect(Set(bulk) == Set(listed), "\(name): the bulk fetch and listing + multiget differ")
    }
}
