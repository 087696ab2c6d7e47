import CalDAV
@testable import CalendarSync
import CalgwTestSupport
import CalgwTestTraits
import Foundation
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct CalDAVStorageTests {
    private func storage(_ name: String, prefix: String) async throws -> (CalDAVStorage, DAVServerFixture) {
        let fixture = try DAVServerFixture(name)
        let url = try await fixture.newCalendar(prefix)
        return (CalDAVStorage(client: fixture.client, collection: url), fixture)
    }

    @Test(arguments: TestServers.selected)
    func testCreateUpdateDeleteAndStaleEtag(server name: String) async throws {
        let (storage, _) = try await storage(name, prefix: "st-crud")
        let uid = TestEvent.uniqueUID()
        let created = try await storage.create(TestEvent.data(uid: uid, end: "20260310T110000Z"), suggestedName: uid)
        #expect(created.href.value.hasSuffix("/\(uid).ics"))
        #expect(!created.etag.value.isEmpty)
        await #expect(throws: StorageError.alreadyExists(href: created.href)) {
            _ = try await storage.create(TestEvent.data(uid: uid, end: "20260310T110000Z"), suggestedName: uid)
        }
        let updated = try await storage.update(
            href: created.href, data: TestEvent.data(uid: uid, summary: "Later", end: "20260310T110000Z"),
            ifMatch: created.etag)
        #expect(updated.href == created.href)
        #expect(updated.etag != created.etag)
        await #expect(throws: StorageError.preconditionFailed(href: created.href)) {
            _ = try await storage.update(
                href: created.href, data: TestEvent.data(uid: uid, summary: "Stale", end: "20260310T110000Z"),
                ifMatch: created.etag)
        }
        await #expect(throws: StorageError.preconditionFailed(href: created.href)) {
            try await storage.delete(href: created.href, ifMatch: created.etag)
        }
        let fetched = try await storage.fetch([created.href])
        #expect(fetched.count == 1)
        #expect(String(decoding: fetched.first.map { $0.data } ?? Data(), as: UTF8.self).contains("SUMMARY:Later"))
        try await storage.delete(href: created.href, ifMatch: updated.etag)
        // Already gone is not an error.
        try await storage.delete(href: created.href, ifMatch: updated.etag)
        #expect(try await storage.fetch([created.href]).isEmpty)
    }

    @Test(arguments: TestServers.selected)
    func testChangesDeltaUnchangedAndBogusTokenFallback(server name: String) async throws {
        let (storage, _) = try await storage(name, prefix: "st-sync")
        var versions: [ItemVersion] = []
        var uids: [String] = []
        for _ in 0..<3 {
            let uid = TestEvent.uniqueUID()
            uids.append(uid)
            versions.append(
                try await storage.create(TestEvent.data(uid: uid, end: "20260310T110000Z"), suggestedName: uid))
        }
        guard case .full(let all, let token?) = try await storage.changes(since: nil) else {
            Issue.record("\(name): the first listing is not full with a token")
            return
        }
        #expect(Set(all.map(\.href)) == Set(versions.map(\.href)))
        #expect(Set(all) == Set(versions), "\(name): listed etags differ from the ones PUT returned")

        switch try await storage.changes(since: token) {
        case .unchanged: break
        case .delta(let changed, let removed, _):
            // DAViCal re-reports unchanged items: same etags, nothing removed.
            #expect(removed.isEmpty)
            #expect(Set(changed).isSubset(of: Set(versions)), "\(name): \(changed)")
        case .full(let items, _):
            #expect(Set(items) == Set(versions))
        }

        let updated = try await storage.update(
            href: versions[0].href, data: TestEvent.data(uid: uids[0], summary: "x", end: "20260310T110000Z"),
            ifMatch: versions[0].etag)
        try await storage.delete(href: versions[1].href, ifMatch: versions[1].etag)
        switch try await storage.changes(since: token) {
        case .delta(let changed, let removed, let next):
            #expect(changed.contains(updated), "\(name): \(changed)")
            #expect(removed == [versions[1].href])
            // (A token that counts seconds stays put through changes in the listing's second.)
            #expect(next != token || ServerFacts.named(name)?.tokenCountsSeconds == true, "\(name)")
        case .full(let items, _):
            #expect(Set(items.map(\.href)) == [versions[0].href, versions[2].href])
        case .unchanged:
            Issue.record("\(name): changes reported as unchanged")
        }

        let bogus = CollectionToken.sync(SyncToken("http://calgw.invalid/sync/999999")).changeToken
        switch try await storage.changes(since: bogus) {
        case .full(let items, let next):
            #expect(Set(items.map(\.href)) == [versions[0].href, versions[2].href])
            #expect(next != nil)
        case .delta(let changed, let removed, _):
            // DAViCal: an unknown token answered with a full listing, nothing duplicated. SOGo
            // answers it with every change it holds, the deletion too.
            #expect(changed.map(\.href).sorted() == [versions[0].href, versions[2].href].sorted(), "\(name)")
            #expect(Set(removed).isSubset(of: [versions[1].href]), "\(name): \(removed)")
        case .unchanged:
            Issue.record("\(name): a bogus token reported as unchanged")
        }
    }

    /// More items than one multiget asks for (100), made in parallel: listed and fetched whole.
    /// 1,000 in the load run.
    @Test(arguments: TestServers.selected)
    func testMoreItemsThanAMultigetListAndFetch(server name: String) async throws {
        let count = TestLoad.size(130, load: 1000)
        let (storage, _) = try await storage(name, prefix: "st-many")
        let uids = (0..<count).map { _ in TestEvent.uniqueUID("bulk") }
        let created = try await withThrowingTaskGroup(of: ItemVersion.self) { group in
            for (index, uid) in uids.enumerated() {
                let date = String(format: "202603%02d", index % 28 + 1)
                group.addTask {
                    try await storage.create(
                        TestEvent.data(
                            uid: uid, summary: "Bulk \(index)", start: "\(date)T100000Z", end: "\(date)T110000Z"),
                        suggestedName: uid)
                }
            }
            var all: [ItemVersion] = []
            for try await version in group { all.append(version) }
            return all
        }
        guard case .full(let listed, _) = try await storage.changes(since: nil) else {
            Issue.record("\(name): not a full listing")
            return
        }
        #expect(listed.count == count)
        #expect(Set(listed) == Set(created))
        let fetched = try await storage.fetch(listed.map(\.href))
        #expect(fetched.count == count)
        #expect(Set(fetched.map(\.version)) == Set(listed))
        let byHref = Dictionary(uniqueKeysWithValues: fetched.map { ($0.href, $0.data) })
        let sample = try #require(byHref[created[0].href])
        #expect(String(decoding: sample, as: UTF8.self).contains("BEGIN:VEVENT"))
    }

    @Test(arguments: TestServers.selected)
    func testTodoAndUnknownComponentRoundTrip(server name: String) async throws {
        let (storage, _) = try await storage(name, prefix: "st-rt")
        let uid = TestEvent.uniqueUID("todo")
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//calgw//tests//EN\r
            BEGIN:VTODO\r
            UID:\(uid)\r
            DTSTAMP:20260101T000000Z\r
            DUE:20260310T170000Z\r
            SUMMARY:File the report\\, with commas\\; and semicolons\r
            X-CALGW-CUSTOM;X-PARAM=keep:value kept\r
            BEGIN:X-CALGW-WIDGET\r
            X-SETTING:on\r
            END:X-CALGW-WIDGET\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        let created = try await storage.create(Data(text.utf8), suggestedName: uid)
        let fetched = try #require(try await storage.fetch([created.href]).first)
        var expected = Self.contentLines(Data(text.utf8))
        if name == "cyrus" {
            // Cyrus keeps X- properties but drops unknown components nested in a VTODO.
            expected.removeAll { ["BEGIN:X-CALGW-WIDGET", "X-SETTING:on", "END:X-CALGW-WIDGET"].contains($0) }
        }
        // What a server's facts say it adds to everything it stores (SOGo's CLASS:PUBLIC).
        let added = Set(ServerFacts.named(name)?.addedProperties ?? [])
        #expect(
            Self.contentLines(fetched.data).filter { !added.contains($0) } == expected,
            "\(name) changed the object:\n\(String(decoding: fetched.data, as: UTF8.self))")
    }

    @Test(.needsServer("cyrus"))
    func testCyrusUIDUsedInAnotherCalendarIsRejectedWithReason() async throws {
        let fixture = try DAVServerFixture("cyrus")
        let first = CalDAVStorage(client: fixture.client, collection: try await fixture.newCalendar("uid-a"))
        let second = CalDAVStorage(client: fixture.client, collection: try await fixture.newCalendar("uid-b"))
        let uid = TestEvent.uniqueUID()
        let kept = try await first.create(TestEvent.data(uid: uid, end: "20260310T110000Z"), suggestedName: uid)
        do {
            _ = try await second.create(TestEvent.data(uid: uid, end: "20260310T110000Z"), suggestedName: uid)
            Issue.record("cyrus accepted a UID used in another calendar")
        } catch let StorageError.rejected(href, reason) {
            #expect(href.value.hasPrefix(HrefResolver.href(of: second.collection).path))
            #expect(reason.contains("unique-scheduling-object-resource") || reason.contains("uid"), "reason: \(reason)")
            #expect(
                reason.contains(kept.href.value) || reason.contains(uid),
                "the reason names neither the other item nor the UID: \(reason)")
        }
        #expect(try await first.fetch([kept.href]).count == 1)
    }

    /// Unfolded content lines without PRODID (which some servers replace), with the
    /// properties of each component sorted: servers may reorder them, which changes nothing.
    static func contentLines(_ data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\n\t", with: "")
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("PRODID:") && !$0.isEmpty }
        var index = 0
        func component() -> [String] {
            let begin = lines[index]
            index += 1
            var properties: [String] = []
            var children: [[String]] = []
            while index < lines.count, !lines[index].hasPrefix("END:") {
                if lines[index].hasPrefix("BEGIN:") {
                    children.append(component())
                } else {
                    properties.append(lines[index])
                    index += 1
                }
            }
            let end = index < lines.count ? lines[index] : "END:?"
            index += 1
            return [begin] + properties.sorted() + children.flatMap { $0 } + [end]
        }
        var out: [String] = []
        while index < lines.count { out += component() }
        return out
    }
}
