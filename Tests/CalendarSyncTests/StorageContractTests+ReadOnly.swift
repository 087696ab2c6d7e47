import CalDAV
import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync
import HTTP

/// The read side of the storage contract, which a read-only storage (a subscription) keeps too:
/// a first listing is full, a listing with its token is unchanged until something changes,
/// fetch returns what was listed and leaves out what is not there, an unchanged item keeps its
/// etag while a changed one gets a new one, an item gone is gone from the listing. Run on the
/// writable storages (seeded through their writes: the vdir, memory, an Outlook calendar through
/// the Graph fake) and on a subscription served by the feed
/// server (seeded by rewriting the feed), with and without validators.
extension StorageContractTests {
    enum ReadKind: String, CaseIterable, Sendable {
        case vdir, memory, graph, subscription, subscriptionWithoutValidators
    }

    /// A storage and a way to make its content `events` (UID → summary).
    final class ReadSide: @unchecked Sendable {
        let storage: any CalendarStorage
        let seed: ([String: String]) async throws -> Void
        let cleanup: () -> Void
        init(
            storage: any CalendarStorage, seed: @escaping ([String: String]) async throws -> Void,
            cleanup: @escaping () -> Void
        ) {
            self.storage = storage
            self.seed = seed
            self.cleanup = cleanup
        }
    }

    static func feed(_ events: [String: String]) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\n"
        for (uid, summary) in events.sorted(by: { $0.key < $1.key }) {
            text +=
                "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260310T100000Z\r\n"
                + "DTEND:20260310T110000Z\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    func makeReadSide(_ kind: ReadKind) async throws -> ReadSide {
        switch kind {
        case .vdir, .memory, .graph:
            let (storage, cleanup) = try await make(kind.rawValue)
            let versions = Locked<[String: ItemVersion]>([:])
            return ReadSide(
                storage: storage,
                seed: { events in
                    for (uid, version) in versions.value where events[uid] == nil {
                        try await storage.delete(href: version.href, ifMatch: version.etag)
                        versions.mutate { $0[uid] = nil }
                    }
                    for (uid, summary) in events {
                        let data = TestEvent.data(uid: uid, summary: summary, duration: "PT1H")
                        if let old = versions.value[uid] {
                            if try await storage.fetch([old.href]).first?.data == data { continue }
                            let new = try await storage.update(href: old.href, data: data, ifMatch: old.etag)
                            versions.mutate { $0[uid] = new }
                        } else {
                            let new = try await storage.create(data, suggestedName: uid)
                            versions.mutate { $0[uid] = new }
                        }
                    }
                }, cleanup: cleanup)
        case .subscription, .subscriptionWithoutValidators:
            let folder = try TemporaryFolder()
            let server = try TestProxies.feed(root: folder.url, validators: kind == .subscription)
            let storage = SubscriptionStorage(
                url: server.url.appendingPathComponent("feed.ics"), client: try HTTPClient())
            return ReadSide(
                storage: storage,
                seed: { events in
                    try Data(Self.feed(events).utf8).write(to: folder.file("feed.ics"))
                },
                cleanup: {
                    server.stop(); folder.remove()
                })
        }
    }

    @Test(arguments: ReadKind.allCases)
    func readContract(kind: ReadKind) async throws {
        let side = try await makeReadSide(kind)
        defer { side.cleanup() }
        let storage = side.storage
        try await side.seed(["a": "A", "b": "B"])

        guard case .full(let first, let token1) = try await storage.changes(since: nil) else {
            Issue.record("\(kind): a first listing is full"); return
        }
        #expect(first.count == 2, "\(kind)")
        if case .unchanged = try await storage.changes(since: token1) {
        } else {
            Issue.record("\(kind): unchanged after no change")
        }

        let fetched = try await storage.fetch(first.map(\.href) + ["missing.ics"])
        #expect(
            Set(fetched.map(\.version)) == Set(first), "\(kind): fetch returns what was listed, at the listed etags")
        let summaries = Set(fetched.map { ItemContent($0.data).uid })
        #expect(summaries == ["a", "b"], "\(kind)")

        try await side.seed(["a": "A", "c": "C", "b": "B changed"])
        let listed: [ItemVersion]
        switch try await storage.changes(since: token1) {
        case .full(let all, _): listed = all
        case .delta(let changed, _, _):
            // A delta lists only what changed: add back the unchanged items it left out.
            listed = changed + first.filter { v in !changed.contains { $0.href == v.href } }
        case .unchanged: Issue.record("\(kind): a change went unseen"); return
        }
        let byUID = Dictionary(
            uniqueKeysWithValues: try await storage.fetch(listed.map(\.href)).map {
                (ItemContent($0.data).uid ?? "", $0)
            })
        let firstByHref = Dictionary(uniqueKeysWithValues: first.map { ($0.href, $0.etag) })
        #expect(Set(byUID.keys) == ["a", "b", "c"], "\(kind)")
        #expect(
            byUID["a"].map { firstByHref[$0.href] == $0.etag } == true,
            "\(kind): an unchanged item keeps its href and etag")
        #expect(
            byUID["b"].map { firstByHref[$0.href] != nil && firstByHref[$0.href] != $0.etag } == true,
            "\(kind): a changed item keeps its href, not its etag")

        try await side.seed(["a": "A"])
        if case .full(let all, _) = try await storage.changes(since: nil) {
            #expect(all.count == 1, "\(kind): an item gone is gone from the listing")
        } else {
            Issue.record("\(kind): a listing without a token is full")
        }
    }

    @Test func aSubscriptionRefusesWrites() async throws {
        let side = try await makeReadSide(.subscription)
        defer { side.cleanup() }
        try await side.seed(["a": "A"])
        guard case .full(let listed, _) = try await side.storage.changes(since: nil), let a = listed.first else {
            Issue.record("no listing"); return
        }
        for write in [
            { _ = try await side.storage.create(TestEvent.data(uid: "x", duration: "PT1H"), suggestedName: "x") },
            {
                _ = try await side.storage.update(
                    href: a.href, data: TestEvent.data(uid: "a", duration: "PT1H"), ifMatch: a.etag)
            },
            { try await side.storage.delete(href: a.href, ifMatch: a.etag) },
        ] as [() async throws -> Void] {
            await #expect { try await write() } throws: { ($0 as? SubscriptionError)?.code == .readOnly }
        }
        #expect(try await side.storage.fetch([a.href]).count == 1)
    }
}
