import CalDAV
import CalendarSync
import CalgwTestSupport
import Foundation
import HTTP
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct CalDAVClientTests {
    @Test(arguments: TestServers.selected)
    func testDiscoverFindsCalendarFromRootAndHome(server name: String) async throws {
        let fixture = try DAVServerFixture(name)
        let url = try await fixture.newCalendar("disc")
        try await fixture.client.updateCollection(url, displayName: "Discovered", color: "#FF0000FF")
        for start in [fixture.server.url, fixture.server.home] {
            let calendars = try await fixture.client.discover(start)
            let mine = calendars.first { $0.href == HrefResolver.href(of: url) }
            #expect(mine != nil, "\(name): \(url) not among \(calendars.map(\.href)) from \(start)")
            #expect(mine?.displayName == "Discovered")
            #expect(
                mine?.color?.uppercased().hasPrefix("#FF0000") == true,
                "\(name): color \(String(describing: mine?.color))")
            #expect(mine?.components.contains("VEVENT") == true, "\(name): components \(mine?.components ?? [])")
        }
        let info = try await fixture.client.collectionInfo(url)
        #expect(info.ctag != nil || info.syncToken != nil, "\(name): neither ctag nor sync-token")
    }

    @Test(arguments: TestServers.selected)
    func testCreateUpdateDeleteWithEtags(server name: String) async throws {
        let fixture = try DAVServerFixture(name)
        let collection = try await fixture.newCalendar("crud")
        let uid = TestEvent.uniqueUID()
        let item = collection.appendingPathComponent("\(uid).ics")
        // What the storage does on a server whose facts say it overwrites whatever
        // If-None-Match says (SOGo): ask whether the name is free first.
        let facts = ServerFacts.named(name) ?? .generic
        if !facts.honoursIfNoneMatch { fixture.client.traits.askBeforeCreating() }
        let etag1 = try await fixture.client.put(
            item, data: TestEvent.data(uid: uid, end: "20260310T110000Z"), condition: .createOnly)
        await #expect(throws: HTTPError.self) {
            try await fixture.client.put(
                item, data: TestEvent.data(uid: uid, end: "20260310T110000Z"), condition: .createOnly)
        }
        let etag2 = try await fixture.client.put(
            item, data: TestEvent.data(uid: uid, summary: "Moved", end: "20260310T110000Z"),
            condition: .ifMatch(etag1))
        #expect(etag1 != etag2)
        do {
            try await fixture.client.put(
                item, data: TestEvent.data(uid: uid, summary: "Stale", end: "20260310T110000Z"),
                condition: .ifMatch(etag1))
            Issue.record("\(name): a stale If-Match was accepted")
        } catch let error as HTTPError {
            #expect(error.code == .preconditionFailed, "\(name): \(error)")
        }
        let got = try await fixture.client.get(item)
        #expect(String(decoding: got.data, as: UTF8.self).contains("SUMMARY:Moved"))
        let listed = try await fixture.client.listItems(in: collection)
        #expect(listed.map(\.href) == [HrefResolver.href(of: item)])
        #expect(listed.first?.etag == etag2)
        if facts.honoursIfMatchOnDelete {
            do {
                try await fixture.client.delete(item, ifMatch: etag1)
                Issue.record("\(name): a stale DELETE was accepted")
            } catch let error as HTTPError {
                #expect(error.code == .preconditionFailed, "\(name): \(error)")
            }
            try await fixture.client.delete(item, ifMatch: etag2)
        } else {
            // As its facts say: the stale DELETE deletes (the storage looks at the version first).
            try await fixture.client.delete(item, ifMatch: etag1)
        }
        #expect(try await fixture.client.listItems(in: collection).isEmpty)
    }

    @Test(arguments: TestServers.selected)
    func testSyncCollectionDeltaAndInvalidToken(server name: String) async throws {
        let fixture = try DAVServerFixture(name)
        let collection = try await fixture.newCalendar("sync")
        let uids = (0..<3).map { _ in TestEvent.uniqueUID() }
        var etags: [String: ETag] = [:]
        for uid in uids {
            etags[uid] = try await fixture.client.put(
                collection.appendingPathComponent("\(uid).ics"),
                data: TestEvent.data(uid: uid, end: "20260310T110000Z"), condition: .createOnly)
        }
        let initial = try await fixture.client.syncCollection(collection, token: nil)
        #expect(
            Set(initial.changed.map(\.href))
                == Set(uids.map { HrefResolver.href(of: collection.appendingPathComponent("\($0).ics")) }))
        let token = try #require(initial.token, "\(name): no sync-token")

        let changedURL = collection.appendingPathComponent("\(uids[0]).ics")
        let removedURL = collection.appendingPathComponent("\(uids[1]).ics")
        let newUID = TestEvent.uniqueUID()
        let newURL = collection.appendingPathComponent("\(newUID).ics")
        try await fixture.client.put(
            changedURL, data: TestEvent.data(uid: uids[0], summary: "Changed", end: "20260310T110000Z"),
            condition: .ifMatch(etags[uids[0]]!))
        try await fixture.client.delete(removedURL, ifMatch: etags[uids[1]]!)
        try await fixture.client.put(
            newURL, data: TestEvent.data(uid: newUID, end: "20260310T110000Z"), condition: .createOnly)

        let delta = try await fixture.client.syncCollection(collection, token: token)
        let changed = Set(delta.changed.map(\.href))
        #expect(
            changed.isSuperset(of: [HrefResolver.href(of: changedURL), HrefResolver.href(of: newURL)]),
            "\(name): \(changed)")
        #expect(delta.removed == [HrefResolver.href(of: removedURL)], "\(name): removed \(delta.removed)")
        // A token that counts whole seconds (SOGo) stays the same through changes made in the
        // second of the last listing; those changes come back with it, as the sets above show.
        #expect(delta.token != token || (ServerFacts.named(name)?.tokenCountsSeconds ?? false), "\(name)")

        do {
            let bogus = try await fixture.client.syncCollection(
                collection, token: SyncToken("http://calgw.invalid/bogus-token"))
            // DAViCal answers an unknown token with a full listing.
            #expect(Set(bogus.changed.map(\.href)).count == 3, "\(name): \(bogus)")
        } catch let error as HTTPError {
            #expect(error.code == .invalidSyncToken, "\(name): \(error)")
        }
    }

    @Test(arguments: TestServers.selected)
    func testMultigetReturnsBytesAndSkipsMissing(server name: String) async throws {
        let fixture = try DAVServerFixture(name) { $0.multigetBatchSize = 2 }
        let collection = try await fixture.newCalendar("mget")
        var hrefs: [Href] = []
        for index in 0..<5 {
            let uid = TestEvent.uniqueUID()
            let url = collection.appendingPathComponent("\(uid).ics")
            try await fixture.client.put(
                url, data: TestEvent.data(uid: uid, summary: "Item \(index)", end: "20260310T110000Z"),
                condition: .createOnly)
            hrefs.append(HrefResolver.href(of: url))
        }
        let missing = HrefResolver.href(of: collection.appendingPathComponent("missing.ics"))
        let fetched = try await fixture.client.multiget(collection, hrefs: hrefs + [missing])
        #expect(fetched.map(\.href) == hrefs)
        for (index, resource) in fetched.enumerated() {
            #expect(String(decoding: resource.data, as: UTF8.self).contains("SUMMARY:Item \(index)"))
            #expect(!resource.etag.value.isEmpty)
        }
    }
}
