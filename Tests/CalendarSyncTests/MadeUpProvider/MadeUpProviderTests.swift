import CalgwTestSupport
import Foundation
import Testing
@testable import CalendarSync

/// A provider that exists only in this folder, registered by name, syncs as the built-in ones
/// do: pairs, account runs and discovery reach it through the registry alone.
@Suite struct MadeUpProviderTests {
    /// A fresh provider under a name of its own (the suite's tests run at once).
    func registered() -> MemoProvider {
        let provider = MemoProvider(name: "memo-\(UUID().uuidString.prefix(8).lowercased())", account: MemoAccount())
        CalendarProviders.register(provider)
        return provider
    }

    /// An account pair on the made-up provider: its calendars become folders, a new file goes
    /// to its calendar, a new folder becomes a calendar the directory makes.
    @Test func anAccountPairSyncsBothWaysThroughTheRegistry() async throws {
        let memo = registered()
        let work = memo.account.calendar(CollectionHref("/alice/work/"))
        work.put("standup.ics", TestEvent.data(uid: "standup", summary: "Standup"))
        _ = memo.account.calendar(CollectionHref("/alice/home/"))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = folder.file("calendars")
        let pair = Pair(
            name: "memo", local: .vdir(local),
            remote: .server(URL(string: "https://\(memo.name).invalid/alice/")!, server: ServerSettings()),
            collections: .all, journal: folder.file("memo.sqlite"))
        #expect(pair.remote.provider?.name == memo.name, "the provider claims its host")
        #expect(!pair.remote.marksSchedulingStatus)

        _ = try await PairRun(pair: pair).run()
        let pulled = try FileManager.default.contentsOfDirectory(atPath: local.appendingPathComponent("work").path)
        #expect(pulled.filter { $0.hasSuffix(".ics") }.count == 1)
        #expect(FileManager.default.fileExists(atPath: local.appendingPathComponent("home").path))

        try TestEvent.data(uid: "dinner", summary: "Dinner").write(
            to: local.appendingPathComponent("home/dinner.ics"))
        let trips = local.appendingPathComponent("trips")
        try FileManager.default.createDirectory(at: trips, withIntermediateDirectories: true)
        try TestEvent.data(uid: "flight", summary: "Flight").write(to: trips.appendingPathComponent("flight.ics"))
        _ = try await PairRun(pair: pair).run()

        let home = memo.account.calendar(CollectionHref("/alice/home/")).contents.values
        #expect(home.contains { String(decoding: $0, as: UTF8.self).contains("SUMMARY:Dinner") })
        let made = memo.account.hrefs.map(\.value).filter { $0.hasPrefix("/alice/trips") }
        #expect(made.count == 1, "the new folder's calendar: \(memo.account.hrefs)")
        let flight = made.first.map { memo.account.calendar(CollectionHref($0)).contents.values } ?? [:].values
        #expect(flight.contains { String(decoding: $0, as: UTF8.self).contains("SUMMARY:Flight") })
    }

    /// A pair of one calendar names the provider with `api` on a host it does not claim, and
    /// `discover` lists its calendars through the same registry.
    @Test func apiNamesTheProviderAndDiscoveryAsksIt() async throws {
        let memo = registered()
        let calendar = memo.account.calendar(CollectionHref("/alice/notes/"))
        calendar.put("a.ics", TestEvent.data(uid: "a", summary: "Noted"))
        var settings = ServerSettings()
        settings.api = memo.name
        let url = URL(string: "https://calendars.example.org/alice/notes/")!
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = Pair(
            name: "notes", local: .vdir(folder.file("notes")), remote: .server(url, server: settings),
            journal: folder.file("notes.sqlite"))
        _ = try await PairRun(pair: pair).run()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.file("notes").path)
        #expect(files.filter { $0.hasSuffix(".ics") }.count == 1)

        let found = try await CalendarServer(settings: settings).discover(url)
        #expect(found.map(\.href) == ["/alice/notes/"])
        #expect(ProviderNames.all.contains(memo.name))
    }
}
