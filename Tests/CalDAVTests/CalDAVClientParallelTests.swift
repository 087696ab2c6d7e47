import CalDAV
import CalgwTestSupport
import Foundation
import Testing

/// Many requests of one `CalDAVClient` in flight at once on real servers: every create lands,
/// the listing and a multiget in several batches return each event once, with its own data.
/// (How fast, against the `curl` command, is `Scripts/bench/caldav`.)
@Suite(.serialized, .timeLimit(.minutes(10))) struct CalDAVClientParallelTests {
    @Test(arguments: TestServers.selected)
    func testParallelCreatesAreListedMultigotAndFetchedOnce(server name: String) async throws {
        let count = 40
        let fixture = try DAVServerFixture(name) { $0.multigetBatchSize = 7 }
        let client = fixture.client
        let collection = try await fixture.newCalendar("parallel")
        let uids = (0..<count).map { _ in TestEvent.uniqueUID("p") }

        // Eight PUTs in flight at any time.
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                let uid = uids[next]
                next += 1
                group.addTask {
                    try await client.put(
                        collection.appendingPathComponent("\(uid).ics"),
                        data: TestEvent.data(uid: uid, end: "20260310T110000Z"),
                        condition: .createOnly)
                }
            }
            for _ in 0..<8 { add() }
            while try await group.next() != nil { if next < count { add() } }
        }

        let listed = try await client.listItems(in: collection)
        #expect(listed.count == count, "\(name): the listing holds \(listed.count) of \(count)")
        #expect(Set(listed.map(\.href)).count == listed.count, "\(name): an href listed twice")

        let fetched = try await client.multiget(collection, hrefs: listed.map(\.href))
        #expect(fetched.count == count, "\(name): multiget in batches of 7 returned \(fetched.count) of \(count)")
        let fetchedUIDs = fetched.compactMap { item in
            uids.first { String(decoding: item.data, as: UTF8.self).contains("UID:\($0)") }
        }
        #expect(Set(fetchedUIDs) == Set(uids), "\(name): multiget lost or repeated events")
        #expect(
            Set(fetched.map(\.href)) == Set(listed.map(\.href)), "\(name): multiget answered other hrefs than listed")

        for item in listed {
            let resource = try await client.get(HrefResolver(base: collection).url(for: item.href))
            let uid = uids.first { String(decoding: resource.data, as: UTF8.self).contains("UID:\($0)") }
            #expect(
                uid.map { item.href.path.hasSuffix("\($0).ics") } == true,
                "\(name): GET \(item.href.path) served another event")
        }
    }
}
