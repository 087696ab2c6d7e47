import CalDAV
import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync
import HTTP

/// A first sync between a vdir and an Outlook calendar (the fake of Graph's calendar
/// endpoints), both holding events, stopped after its k-th side effect (see `stops`); then
/// Outlook deletes and edits events, and the vdir loses one, before the next run. The next run
/// must end with both sides equal: nothing lost or doubled, nothing deleted brought back, no
/// edit undone, no mail sent.
@Suite(.timeLimit(.minutes(10))) struct GraphInterruptionTests {
    /// The side effects stopped after: every one in the load run (`CALGW_LOAD=1`), every third
    /// and the last in the default run.
    static func stops(_ total: Int) -> [Int] {
        let every = Array(stride(from: 1, through: total, by: TestLoad.isOn ? 1 : 3))
        return every.last == total ? every : every + [total]
    }

    /// Graph as it usually answers, and, in the load run, also at its worst (each campaign
    /// again with `If-Match` ignored and spurious 412s: the default suite checks those
    /// behaviours one by one, `GraphUpdateTests` and the storage's own tests).
    static let conditions = TestLoad.isOn ? [false, true] : [false]

    /// One mailbox for the whole campaign, emptied before each stop.
    final class Campaign: @unchecked Sendable {
        let graph: TestGraphServer
        var folder: TemporaryFolder
        var calendar: URL
        /// Graph at its worst, as reported (Scripts/graph/README.md): `If-Match` ignored, and
        /// every fifth read refused with a spurious 412, inside `$batch` too.
        let atItsWorst: Bool

        init(atItsWorst: Bool = false) async throws {
            graph = try await TestGraphServer()
            folder = try TemporaryFolder()
            calendar = try await graph.defaultCalendar()
            self.atItsWorst = atItsWorst
        }

        /// A fresh vdir and an emptied mailbox, each holding its own events.
        func reset() async throws -> (VDirStorage, Journal) {
            folder.remove()
            folder = try TemporaryFolder()
            try await graph.control("POST", "reset")
            try await graph.control("DELETE", "faults")
            try await graph.control("POST", "settings", json: ["honoursIfMatch": 1])
            calendar = try await graph.defaultCalendar()
            let local = VDirStorage(url: folder.file("vdir"))
            try local.directory.createIfMissing()
            for i in 0..<4 {
                try Data(
                    TestEvent.ics(
                        uid: "local-\(i)", summary: "local \(i)", start: "2027010\(i + 1)T100000Z",
                        end: "2027010\(i + 1)T110000Z"
                    ).utf8
                ).write(to: local.directory.url.appendingPathComponent("local-\(i).ics"))
            }
            for i in 0..<4 {
                try await graph.graph(
                    "POST", "/me/calendar/events",
                    json: [
                        "subject": "outlook \(i)",
                        "start": ["dateTime": "2027-02-0\(i + 1)T09:00:00", "timeZone": "UTC"],
                        "end": ["dateTime": "2027-02-0\(i + 1)T10:00:00", "timeZone": "UTC"],
                    ])
            }
            // A series whose second occurrence Outlook deleted (delta lists no trace of it) and
            // whose third it renamed.
            let series = try await graph.graph(
                "POST", "/me/calendar/events",
                json: [
                    "subject": "outlook series", "start": ["dateTime": "2027-03-01T09:00:00", "timeZone": "UTC"],
                    "end": ["dateTime": "2027-03-01T10:00:00", "timeZone": "UTC"],
                    "recurrence": [
                        "pattern": ["type": "daily", "interval": 1],
                        "range": ["type": "numbered", "startDate": "2027-03-01", "numberOfOccurrences": 3],
                    ],
                ])
            let id = (series.body as? [String: Any])?["id"] as? String ?? ""
            let instances = try await graph.listed(
                "id",
                at: "/me/events/\(id)/instances?startDateTime=2027-02-28T00:00:00Z&endDateTime=2027-03-05T00:00:00Z")
            guard instances.count == 3 else { throw FixtureFailure("the series has \(instances.count) occurrences") }
            try await graph.graph("DELETE", "/me/events/\(instances[1])")
            try await graph.graph("PATCH", "/me/events/\(instances[2])", json: ["subject": "outlook series 3"])
            if atItsWorst {
                try await graph.control("POST", "settings", json: ["honoursIfMatch": 0])
                try await graph.control(
                    "POST", "faults", json: ["status": 412, "method": "GET", "every": 5, "count": 1_000_000])
            }
            return (local, try Journal.open(at: folder.file("journal.sqlite")))
        }

        func remote() throws -> GraphStorage {
            let token = graph.token
            var configuration = HTTPClientConfiguration(authentication: .bearer(BearerTokenProvider { token }))
            configuration.retryBaseDelay = 0.02  // the storm's answers ask for no wait
            let http = try HTTPClient(configuration: configuration)
            return try GraphStorage(http: http, calendar: calendar)
        }

        /// A run between `local` and the mailbox, with `faultHook` watching its side effects.
        func sync(_ local: VDirStorage, _ journal: Journal, faultHook: FaultHook? = nil) async throws -> SyncReport {
            try await SyncEngine(local: local, remote: try remote(), journal: journal, faultHook: faultHook).run()
        }

        /// How many side effects a run between `local` and the mailbox has, not stopped.
        func sideEffects(_ local: VDirStorage, _ journal: Journal) async throws -> Int {
            let count = Locked(0)
            _ = try await sync(local, journal, faultHook: { n in count.value = n })
            return count.value
        }

        /// Outlook renames its event `subject` to `new`, or deletes it when `new` is nil.
        func outlookChanges(_ subject: String, to new: String?) async throws {
            guard let id = try await outlook().first(where: { $0.value == subject })?.key else { return }
            if let new {
                try await graph.graph("PATCH", "/me/events/\(id)", json: ["subject": new])
            } else {
                try await graph.graph("DELETE", "/me/events/\(id)")
            }
        }

        /// Outlook's events: id → subject.
        func outlook() async throws -> [String: String] {
            var listed = try await graph.graph("GET", "/me/calendar/events?$top=100")
            while listed.status == 412 { listed = try await graph.graph("GET", "/me/calendar/events?$top=100") }
            var out: [String: String] = [:]
            for event in TestGraphServer.values(listed) {
                if let id = event["id"] as? String, let subject = event["subject"] as? String { out[id] = subject }
            }
            return out
        }

        /// Whether the vdir's copy of Outlook's series has its deleted occurrence (EXDATE) and
        /// its renamed one (RECURRENCE-ID).
        static func seriesIsWhole(_ local: VDirStorage) throws -> Bool {
            try local.directory.scan().contains { entry in
                let text = try String(
                    contentsOf: local.directory.url.appendingPathComponent(entry.name), encoding: .utf8)
                return text.contains("SUMMARY:outlook series\r\n") && text.contains("EXDATE")
                    && text.contains("RECURRENCE-ID") && text.contains("SUMMARY:outlook series 3")
            }
        }

        /// The vdir's events: SUMMARY of each file.
        static func summaries(_ local: VDirStorage) throws -> [String] {
            try local.directory.scan().map { entry in
                let text = try String(
                    contentsOf: local.directory.url.appendingPathComponent(entry.name), encoding: .utf8)
                return text.split(separator: "\r\n").first { $0.hasPrefix("SUMMARY:") }.map {
                    String($0.dropFirst("SUMMARY:".count))
                } ?? ""
            }.sorted()
        }
    }

    /// After a first sync, edits, deletions and new events on both sides; the run that carries
    /// them is stopped after its k-th side effect (see `stops`), Outlook changes an event again,
    /// and the next run must end with both sides equal and every change kept.
    @Test(arguments: conditions) func aLaterSyncStoppedAnywhereThenChangedConverges(atItsWorst: Bool) async throws {
        let campaign = try await Campaign(atItsWorst: atItsWorst)
        defer { campaign.graph.stop(); campaign.folder.remove() }
        func prepared() async throws -> (VDirStorage, Journal) {
            let (local, journal) = try await campaign.reset()
            _ = try await campaign.sync(local, journal)
            let vdir = local.directory.url
            let one = try String(contentsOf: vdir.appendingPathComponent("local-1.ics"), encoding: .utf8)
            try Data(one.replacingOccurrences(of: "SUMMARY:local 1", with: "SUMMARY:local 1 edited").utf8)
                .write(to: vdir.appendingPathComponent("local-1.ics"))
            try FileManager.default.removeItem(at: vdir.appendingPathComponent("local-2.ics"))
            try Data(
                TestEvent.ics(uid: "local-9", summary: "local 9", start: "20270109T100000Z", end: "20270109T110000Z")
                    .utf8
            ).write(to: vdir.appendingPathComponent("local-9.ics"))
            try await campaign.outlookChanges("outlook 2", to: "outlook 2 edited")
            try await campaign.outlookChanges("outlook 3", to: nil)
            return (local, journal)
        }
        let (local0, journal0) = try await prepared()
        let total = try await campaign.sideEffects(local0, journal0)
        #expect(total >= 5, "\(total) side effects for 5 writes")

        for k in Self.stops(total) {
            let (local, journal) = try await prepared()
            await #expect(throws: RunInterrupted.self, "k = \(k)") {
                try await campaign.sync(local, journal, faultHook: { n in if n == k { throw RunInterrupted() } })
            }
            try await campaign.outlookChanges("outlook 0", to: "outlook 0 edited")
            let report = try await campaign.sync(local, journal)
            #expect(report.errors.isEmpty, "k = \(k): \(report)")
            let remoteSubjects = try await campaign.outlook().values.sorted()
            #expect(remoteSubjects == (try Campaign.summaries(local)), "k = \(k)")
            #expect(
                remoteSubjects == [
                    "local 0", "local 1 edited", "local 3", "local 9", "outlook 0 edited", "outlook 1",
                    "outlook 2 edited", "outlook series",
                ], "k = \(k): \(remoteSubjects)")
            #expect(try Campaign.seriesIsWhole(local), "k = \(k)")
            let quiet = try await campaign.sync(local, journal)
            #expect(quiet.created.total + quiet.updated.total + quiet.deleted.total == 0, "k = \(k): \(quiet)")
            await #expect(try campaign.graph.ledger().isEmpty, "k = \(k)")
        }
    }

    /// A throttling storm over a first sync and the runs after it, while both sides change:
    /// every third request throttled (also inside `$batch`), service faults, and creates and
    /// edits done by Outlook whose answers are lost to a gateway's timeout (one create is then
    /// edited in the vdir before the next run: it must not be kept twice). Runs may
    /// fail in it; none loses, doubles or brings back an event, and once the storm passes
    /// one run converges.
    @Test(arguments: conditions) func aThrottlingStormWithLostAnswersLosesAndDoublesNothing(atItsWorst: Bool)
        async throws
    {
        let campaign = try await Campaign(atItsWorst: atItsWorst)
        defer { campaign.graph.stop(); campaign.folder.remove() }
        let (local, journal) = try await campaign.reset()
        try await campaign.graph.control(
            "POST", "faults",
            json: [
                "faults": [
                    ["status": 429, "retryAfter": 0, "every": 3, "count": 60],
                    ["status": 503, "every": 5, "count": 12],
                    ["status": 504, "after": true, "method": "POST", "path": "/events", "every": 2, "count": 3],
                    ["status": 504, "after": true, "method": "PATCH", "count": 1],
                ]
            ])
        var failedRuns = 0
        func stormyRun() async {
            do {
                let report = try await campaign.sync(local, journal)
                if !report.errors.isEmpty { failedRuns += 1 }
            } catch { failedRuns += 1 }
        }
        await stormyRun()
        let vdir = local.directory.url
        let one = try String(contentsOf: vdir.appendingPathComponent("local-1.ics"), encoding: .utf8)
        try Data(one.replacingOccurrences(of: "SUMMARY:local 1", with: "SUMMARY:local 1 edited").utf8)
            .write(to: vdir.appendingPathComponent("local-1.ics"))
        // An event both sides hold after the first run, edited in the vdir: its update's answer
        // is lost in the storm, whichever of the creates before it failed.
        let pulled = try #require(
            try local.directory.scan().map(\.name).first {
                let text = try? String(contentsOf: vdir.appendingPathComponent($0), encoding: .utf8)
                return text?.contains("SUMMARY:outlook 1\r\n") == true
            })
        let text = try String(contentsOf: vdir.appendingPathComponent(pulled), encoding: .utf8)
        try Data(text.replacingOccurrences(of: "SUMMARY:outlook 1", with: "SUMMARY:outlook 1 edited").utf8)
            .write(to: vdir.appendingPathComponent(pulled))
        try FileManager.default.removeItem(at: vdir.appendingPathComponent("local-2.ics"))
        try Data(
            TestEvent.ics(uid: "local-9", summary: "local 9", start: "20270109T100000Z", end: "20270109T110000Z").utf8
        ).write(to: vdir.appendingPathComponent("local-9.ics"))
        // Outlook's own edits go through while the storm is held back (it is calgw's to weather).
        let storm = try await campaign.graph.control("GET", "faults").body as? [String: Any]
        try await campaign.graph.control("DELETE", "faults")
        try await campaign.outlookChanges("outlook 2", to: "outlook 2 edited")
        try await campaign.outlookChanges("outlook 3", to: nil)
        try await campaign.graph.control("POST", "faults", json: ["faults": storm?["value"] ?? []])
        for _ in 0..<3 {
            await stormyRun()
            let subjects = try await campaign.outlook().values.sorted()
            #expect(Set(subjects).count == subjects.count, "doubled in the storm: \(subjects)")
            #expect(!subjects.contains("local 2") || failedRuns > 0, "\(subjects)")
        }
        let spent = try await campaign.graph.control("GET", "faults")
        try await campaign.graph.control("DELETE", "faults")
        let left = (spent.body as? [String: Any])?["value"] as? [[String: Any]] ?? []
        let lostAnswers = left.filter { $0["after"] as? Bool == true }.map { $0["count"] as? Int ?? -1 }
        #expect(lostAnswers == [1, 0], "lost answers not spent: \(left)")
        #expect(failedRuns > 0, "the storm failed no run")

        let report = try await campaign.sync(local, journal)
        #expect(report.errors.isEmpty, "\(report)")
        let remoteSubjects = try await campaign.outlook().values.sorted()
        #expect(remoteSubjects == (try Campaign.summaries(local)))
        #expect(
            remoteSubjects == [
                "local 0", "local 1 edited", "local 3", "local 9", "outlook 0", "outlook 1 edited", "outlook 2 edited",
                "outlook series",
            ], "\(remoteSubjects); faults left: \(spent)")
        #expect(try Campaign.seriesIsWhole(local))
        let quiet = try await campaign.sync(local, journal)
        #expect(quiet.created.total + quiet.updated.total + quiet.deleted.total == 0, "\(quiet)")
        await #expect(try campaign.graph.ledger().isEmpty)
        let throttled = try await campaign.graph.requests().filter { ($0["status"] as? Int) == 429 }.count
        #expect(throttled >= 5, "the storm throttled \(throttled) requests")
    }

    @Test(arguments: conditions) func aFirstSyncStoppedAnywhereThenChangedConverges(atItsWorst: Bool) async throws {
        let campaign = try await Campaign(atItsWorst: atItsWorst)
        defer { campaign.graph.stop(); campaign.folder.remove() }
        let (local0, journal0) = try await campaign.reset()
        let total = try await campaign.sideEffects(local0, journal0)
        #expect(total >= 8, "\(total) side effects for 8 writes")

        for k in Self.stops(total) {
            let (local, journal) = try await campaign.reset()
            await #expect(throws: RunInterrupted.self, "k = \(k)") {
                try await campaign.sync(local, journal, faultHook: { n in if n == k { throw RunInterrupted() } })
            }
            // Outlook deletes one of its events and edits another; the vdir loses one of its own.
            try await campaign.outlookChanges("outlook 0", to: nil)
            try await campaign.outlookChanges("outlook 1", to: "outlook 1 edited")
            try? FileManager.default.removeItem(at: local.directory.url.appendingPathComponent("local-0.ics"))

            let report = try await campaign.sync(local, journal)
            #expect(report.errors.isEmpty, "k = \(k): \(report)")
            let remoteSubjects = try await campaign.outlook().values.sorted()
            let localSubjects = try Campaign.summaries(local)
            #expect(remoteSubjects == localSubjects, "k = \(k): \(remoteSubjects) against \(localSubjects)")
            #expect(Set(remoteSubjects).count == remoteSubjects.count, "k = \(k): doubled: \(remoteSubjects)")
            #expect(!remoteSubjects.contains("outlook 0") && !remoteSubjects.contains("outlook 1"), "k = \(k)")
            #expect(remoteSubjects.contains("outlook 1 edited") && remoteSubjects.contains("local 1"), "k = \(k)")
            #expect(try Campaign.seriesIsWhole(local), "k = \(k)")
            let quiet = try await campaign.sync(local, journal)
            #expect(quiet.created.total + quiet.updated.total + quiet.deleted.total == 0, "k = \(k): \(quiet)")
            await #expect(try campaign.graph.ledger().isEmpty, "k = \(k)")
        }
        if atItsWorst {
            let refused = try await campaign.graph.requests().filter { ($0["status"] as? Int) == 412 }.count
            #expect(refused > 0, "no read was refused: the fault did not apply")
        }
    }
}
