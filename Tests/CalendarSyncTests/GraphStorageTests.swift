import CalDAV
import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync
import HTTP

/// A vdir synced with an Outlook calendar through Microsoft Graph, against the fake of Graph's
/// calendar endpoints (`Scripts/graph/server`), while "Outlook" (the tests, through the same
/// API) changes the calendar too.
@Suite(.timeLimit(.minutes(10))) struct GraphStorageTests {
    struct Setup {
        let graph: TestGraphServer
        let folder: TemporaryFolder
        let local: VDirStorage
        let journal: Journal
        let calendar: URL

        init() async throws {
            graph = try await TestGraphServer()
            folder = try TemporaryFolder()
            local = VDirStorage(url: folder.file("vdir"))
            try local.directory.createIfMissing()
            journal = try Journal.open(at: folder.file("journal.sqlite"))
            calendar = try await graph.defaultCalendar()
        }

        /// A storage as each run makes it: a new client, the token the fake takes.
        func remote(via proxy: TestProxy? = nil, window: String? = nil) throws -> GraphStorage {
            let token = graph.token
            let http = try HTTPClient(
                configuration: .init(authentication: .bearer(BearerTokenProvider { token })))
            return try GraphStorage(http: http, calendar: proxy?.proxied(calendar) ?? calendar, window: window)
        }

        func sync(pageSize: Int = 100, via proxy: TestProxy? = nil, window: String? = nil) async throws -> SyncReport {
            let remote = try remote(via: proxy, window: window)
            remote.pageSize = pageSize
            return try await SyncEngine(local: local, remote: remote, journal: journal).run()
        }

        func files() throws -> [String: String] {
            var out: [String: String] = [:]
            for entry in try local.directory.scan() {
                out[entry.name] = try String(
                    contentsOf: local.directory.url.appendingPathComponent(entry.name), encoding: .utf8)
            }
            return out
        }

        /// A date-time `days` from now at `hour`:00 UTC, as Graph writes one.
        static func time(_ days: Int, _ hour: Int) -> String {
            let day = Date().addingTimeInterval(TimeInterval(days) * 86_400)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter.string(from: day) + String(format: "T%02d:00:00", hour)
        }

        /// An event Outlook makes: its id.
        func outlookCreates(_ body: [String: Any]) async throws -> String {
            let made = try await graph.graph("POST", "/me/calendar/events", json: body)
            guard made.status == 201, let id = (made.body as? [String: Any])?["id"] as? String else {
                throw FixtureFailure("Outlook's create failed: \(made)")
            }
            return id
        }
    }

    static func single(_ subject: String, days: Int) -> [String: Any] {
        [
            "subject": subject, "start": ["dateTime": Setup.time(days, 9), "timeZone": "UTC"],
            "end": ["dateTime": Setup.time(days, 10), "timeZone": "UTC"],
        ]
    }

    @Test func eventsAndSeriesCrossBothWaysAndARoundTripSendsNothing() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let lunch = try await s.outlookCreates(Self.single("Lunch", days: 7))
        let start = Setup.time(14, 8)
        let weekly = try await s.outlookCreates([
            "subject": "Standup", "start": ["dateTime": start, "timeZone": "W. Europe Standard Time"],
            "end": ["dateTime": Setup.time(14, 9), "timeZone": "W. Europe Standard Time"],
            "recurrence": [
                "pattern": ["type": "daily", "interval": 1],
                "range": ["type": "numbered", "startDate": String(start.prefix(10)), "numberOfOccurrences": 4],
            ],
        ])
        let instances = try await s.graph.graph(
            "GET",
            "/me/events/\(weekly)/instances?startDateTime=\(Setup.time(13, 0))Z&endDateTime=\(Setup.time(19, 0))Z")
        let ids = TestGraphServer.values(instances).compactMap {
            $0["id"] as? String
        }
        #expect(ids.count == 4, "\(instances)")
        try await s.graph.graph("DELETE", "/me/events/\(ids[1])")
        try await s.graph.graph("PATCH", "/me/events/\(ids[2])", json: ["subject": "Standup (long)"])

        var report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report)")
        #expect(report.created.local == 2, "\(report)")
        let series = try s.files().values.first { $0.contains("SUMMARY:Standup") } ?? ""
        #expect(series.contains("RRULE:FREQ=DAILY;COUNT=4"), "\(series)")
        #expect(series.contains("EXDATE"), "\(series)")
        #expect(series.contains("RECURRENCE-ID") && series.contains("SUMMARY:Standup (long)"), "\(series)")

        report = try await s.sync()
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")

        // A new file and an edit in the vdir reach Outlook.
        try Data(
            TestEvent.ics(
                uid: "made-here", summary: "Dentist", start: "\(Setup.time(3, 15).filter { $0 != "-" && $0 != ":" })Z",
                end: "\(Setup.time(3, 16).filter { $0 != "-" && $0 != ":" })Z"
            ).utf8
        )
        .write(to: s.local.directory.url.appendingPathComponent("made-here.ics"))
        let lunchFile = try s.files().first { $0.value.contains("SUMMARY:Lunch") }!
        try Data(lunchFile.value.replacingOccurrences(of: "SUMMARY:Lunch", with: "SUMMARY:Long lunch").utf8)
            .write(to: s.local.directory.url.appendingPathComponent(lunchFile.key))
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.remote == 1 && report.updated.remote == 1, "\(report)")
        let read = try await s.graph.graph("GET", "/me/events/\(lunch)")
        #expect((read.body as? [String: Any])?["subject"] as? String == "Long lunch", "\(read)")
        let listed = try await s.graph.graph("GET", "/me/calendar/events?$top=50")
        let subjects = TestGraphServer.values(listed).compactMap {
            $0["subject"] as? String
        }
        #expect(Set(subjects) == ["Long lunch", "Standup", "Dentist"], "\(subjects)")

        // Deletions, each way.
        try await s.graph.graph("DELETE", "/me/events/\(weekly)")
        try FileManager.default.removeItem(at: s.local.directory.url.appendingPathComponent(lunchFile.key))
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.deleted.local == 1 && report.deleted.remote == 1, "\(report)")
        await #expect(try s.graph.graph("GET", "/me/events/\(lunch)").status == 404)
        #expect(try s.files().values.allSatisfy { !$0.contains("Standup") })
        report = try await s.sync()
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
        await #expect(try s.graph.ledger().isEmpty)
    }

    @Test func aMeetingCopyIsNeverWrittenAndATaskStaysLocal() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        try Data(
            TestEvent.ics(
                uid: "meeting-copy", summary: "Review", start: "20270105T100000Z", end: "20270105T110000Z",
                extra: ["ORGANIZER:mailto:me@example.org", "ATTENDEE:mailto:bob@example.org"]
            ).utf8
        ).write(to: s.local.directory.url.appendingPathComponent("meeting-copy.ics"))
        let task =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VTODO\r\nUID:task-1\r\n"
            + "DTSTAMP:20260101T000000Z\r\nSUMMARY:Taxes\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try Data(task.utf8).write(to: s.local.directory.url.appendingPathComponent("task-1.ics"))
        let report = try await s.sync()
        #expect(report.created.remote == 0 && report.errors.isEmpty, "\(report)")
        #expect(report.notes.contains { $0.contains("meeting-copy: the meeting stays in the vdir") }, "\(report)")
        #expect(report.notes.contains { $0.contains("task") }, "\(report)")
        let again = try await s.sync()
        #expect(again.errors.isEmpty && again.notes.isEmpty && again.created.total == 0, "\(again)")
        await #expect(try s.graph.ledger().isEmpty)
        let listed = try await s.graph.graph("GET", "/me/calendar/events")
        #expect(((listed.body as? [String: Any])?["value"] as? [Any])?.isEmpty == true, "\(listed)")
        #expect(try s.files().count == 2)
    }

    @Test func aRepeatedPageStopsTheRunAndTheNextConverges() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        for day in 1...30 { _ = try await s.outlookCreates(Self.single("Day \(day)", days: day)) }
        try await s.graph.control("POST", "faults", json: ["kind": "repeatPage", "count": 3])
        await #expect(throws: (any Error).self) { try await s.sync(pageSize: 5) }
        #expect(try s.files().isEmpty)
        try await s.graph.control("DELETE", "faults")
        let report = try await s.sync(pageSize: 5)
        #expect(report.errors.isEmpty && report.created.local == 30, "\(report)")
    }

    /// A create whose answer was lost (the connection broke after Graph made the event) is
    /// sent again by the next run with the same `transactionId`, which Graph takes as the same
    /// create; a throttled create (429) is waited out. Each event is made once.
    @Test func aLostAnswerAndAThrottledCreateMakeEachEventOnce() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let proxy = try TestProxies.fault(upstream: s.graph.url, script: "truncate,429", onlyMethods: "POST")
        defer { proxy.stop() }
        for name in ["first", "second"] {
            try Data(
                TestEvent.ics(uid: name, summary: name, start: "20270105T100000Z", end: "20270105T110000Z").utf8
            ).write(to: s.local.directory.url.appendingPathComponent("\(name).ics"))
        }
        _ = try? await s.sync(via: proxy)
        let report = try await s.sync(via: proxy)
        #expect(report.errors.isEmpty, "\(report)")
        let listed = try await s.graph.graph("GET", "/me/calendar/events")
        let subjects = TestGraphServer.values(listed).compactMap {
            $0["subject"] as? String
        }
        #expect(subjects.sorted() == ["first", "second"], "\(listed)")
        let actions = proxy.logEntries().filter { $0["method"] as? String == "POST" }.compactMap {
            $0["action"] as? String
        }
        #expect(actions.prefix(2) == ["truncate", "429"], "\(actions)")
        let quiet = try await s.sync()
        #expect(quiet.created.total + quiet.updated.total + quiet.deleted.total == 0, "\(quiet)")
    }

    /// What calgw writes reads back as written while nobody changes it in Outlook (the text
    /// kept with the event), and as Graph holds it once someone does.
    @Test func whatCalgwWroteReadsBackAsWrittenUntilOutlookChangesIt() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let remote = try s.remote()
        let text = TestEvent.ics(
            uid: "kept", summary: "Kept", start: "20270105T100000Z", end: "20270105T110000Z",
            extra: ["X-CUSTOM:something Graph has no field for"])
        let data = Data(text.utf8)
        let version = try await remote.create(data, suggestedName: "kept")
        let read = try await remote.fetch([version.href])
        #expect(read.first?.data == data, "\(String(decoding: read.first?.data ?? Data(), as: UTF8.self))")
        try await s.graph.graph("PATCH", "/me/events/\(version.href.value)", json: ["subject": "Changed in Outlook"])
        let changed = try await remote.fetch([version.href])
        let changedText = String(decoding: changed.first?.data ?? Data(), as: UTF8.self)
        #expect(
            changedText.contains("SUMMARY:Changed in Outlook") && changedText.contains("UID:kept"), "\(changedText)")
    }

    /// A first sync reads the window's events a page at a time, whole (`…/events?$select=…
    /// &$expand=…`), not twenty to a `$batch`: for 45 events and 3 series in pages of 20, the
    /// calendar, one delta page and three pages of events. An event outside the window is
    /// listed but left out; a series comes with its exception and its cancelled occurrence.
    @Test func aFirstSyncReadsTheEventsAPageAtATime() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        for day in 1...44 { _ = try await s.outlookCreates(Self.single("Day \(day)", days: day)) }
        _ = try await s.outlookCreates(Self.single("Far", days: 3_000))
        var series: [String] = []
        for week in 1...3 {
            let start = Setup.time(7 * week, 8)
            series.append(
                try await s.outlookCreates([
                    "subject": "Series \(week)", "start": ["dateTime": start, "timeZone": "UTC"],
                    "end": ["dateTime": Setup.time(7 * week, 9), "timeZone": "UTC"],
                    "recurrence": [
                        "pattern": ["type": "daily", "interval": 1],
                        "range": [
                            "type": "numbered", "startDate": String(start.prefix(10)), "numberOfOccurrences": 3,
                        ],
                    ],
                ]))
        }
        let instances = try await s.graph.graph(
            "GET",
            "/me/events/\(series[0])/instances?startDateTime=\(Setup.time(6, 0))Z&endDateTime=\(Setup.time(11, 0))Z")
        let ids = TestGraphServer.values(instances).compactMap { $0["id"] as? String }
        #expect(ids.count == 3, "\(instances)")
        try await s.graph.graph("DELETE", "/me/events/\(ids[1])")
        try await s.graph.graph("PATCH", "/me/events/\(ids[2])", json: ["subject": "Series 1 (moved)"])
        let before = try await s.graph.requests().count
        let remote = try s.remote()
        remote.listPageSize = 20
        let report = try await SyncEngine(local: s.local, remote: remote, journal: s.journal).run()
        #expect(report.errors.isEmpty && report.created.local == 47, "\(report)")
        let made = try await s.graph.requests().dropFirst(before).compactMap { $0["path"] as? String }
        #expect(made.count == 5 && !made.contains { $0.contains("$batch") }, "\(made.count) requests: \(made)")
        let files = try s.files().values
        #expect(!files.contains { $0.contains("SUMMARY:Far") })
        let first = files.first { $0.contains("SUMMARY:Series 1") } ?? ""
        #expect(first.contains("EXDATE") && first.contains("SUMMARY:Series 1 (moved)"), "\(first)")
        // The next run finds nothing new in one request: the round and the folder's commit
        // stamp in one `$batch`; the stamp has not moved, so no series is asked.
        let after = try await s.graph.requests().count
        let again = try await s.sync()
        #expect(again.created.total + again.updated.total + again.deleted.total == 0, "\(again)")
        let next = try await s.graph.requests().dropFirst(after).compactMap { $0["path"] as? String }
        #expect(next == ["/v1.0/$batch"], "\(next)")
    }

    /// A round whose folder changed asks every series' change key (an occurrence deleted in
    /// Outlook moves only that): from one listing page of the calendar's events (ids and change
    /// keys) where that costs less than a `$batch` per twenty series. With 25 series, a run
    /// that finds nothing new is one `$batch` (the round, the folder's commit stamp); after an
    /// occurrence was deleted in Outlook, the series are asked in one page, not two batches,
    /// and the deletion is found.
    @Test func aRoundAsksTheSeriesInAListingWhereThatCostsLess() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        var series: [String] = []
        for day in 1...25 {
            let start = Setup.time(day, 7)
            series.append(
                try await s.outlookCreates([
                    "subject": "Series \(day)", "start": ["dateTime": start, "timeZone": "UTC"],
                    "end": ["dateTime": Setup.time(day, 8), "timeZone": "UTC"],
                    "recurrence": [
                        "pattern": ["type": "daily", "interval": 1],
                        "range": [
                            "type": "numbered", "startDate": String(start.prefix(10)), "numberOfOccurrences": 2,
                        ],
                    ],
                ]))
        }
        for day in 1...5 { _ = try await s.outlookCreates(Self.single("Day \(day)", days: day)) }
        var report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.local == 30, "\(report)")
        let before = try await s.graph.requests().count
        report = try await s.sync()
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
        let made = try await s.graph.requests().dropFirst(before).compactMap { $0["path"] as? String }
        #expect(made == ["/v1.0/$batch"], "\(made)")

        let ids = try await s.graph.listed(
            "id",
            at: "/me/events/\(series[9])/instances?startDateTime=\(Setup.time(9, 0))Z&endDateTime=\(Setup.time(12, 0))Z"
        )
        #expect(ids.count == 2)
        try await s.graph.graph("DELETE", "/me/events/\(ids[1])")
        let beforeDeletion = try await s.graph.requests().count
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.local == 1, "\(report)")
        let asked = try await s.graph.requests().dropFirst(beforeDeletion).compactMap { $0["path"] as? String }
        #expect(asked.filter { $0.contains("$select=id,changeKey,type") }.count == 1, "\(asked)")
        #expect(asked.count == 3, "the round, one listing page, the series read: \(asked)")
        let file = try s.files().values.first { $0.contains("SUMMARY:Series 10\r\n") } ?? ""
        #expect(file.contains("EXDATE"), "\(file)")
    }

    /// Graph's delta marks removed alike an event deleted, one moved out of the window and an
    /// occurrence cancelled: the moved one is kept and moved in the vdir too, the cancelled
    /// occurrence becomes an EXDATE, only the deleted one is deleted.
    @Test func aRemovalIsTakenForWhatItIs() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let moved = try await s.outlookCreates(Self.single("Moved far", days: 5))
        let deleted = try await s.outlookCreates(Self.single("Deleted", days: 6))
        let start = Setup.time(10, 8)
        let series = try await s.outlookCreates([
            "subject": "Daily", "start": ["dateTime": start, "timeZone": "UTC"],
            "end": ["dateTime": Setup.time(10, 9), "timeZone": "UTC"],
            "recurrence": [
                "pattern": ["type": "daily", "interval": 1],
                "range": ["type": "numbered", "startDate": String(start.prefix(10)), "numberOfOccurrences": 3],
            ],
        ])
        var report = try await s.sync()
        #expect(report.created.local == 3, "\(report)")

        try await s.graph.graph(
            "PATCH", "/me/events/\(moved)",
            json: [
                "start": ["dateTime": "2040-01-10T09:00:00", "timeZone": "UTC"],
                "end": ["dateTime": "2040-01-10T10:00:00", "timeZone": "UTC"],
            ])
        try await s.graph.graph("DELETE", "/me/events/\(deleted)")
        let instances = try await s.graph.graph(
            "GET", "/me/events/\(series)/instances?startDateTime=\(Setup.time(9, 0))Z&endDateTime=\(Setup.time(14, 0))Z"
        )
        let ids = TestGraphServer.values(instances).compactMap {
            $0["id"] as? String
        }
        #expect(ids.count == 3, "\(instances)")
        try await s.graph.graph("DELETE", "/me/events/\(ids.last ?? "")")

        report = try await s.sync()
        #expect(report.errors.isEmpty && report.deleted.local == 1 && report.updated.local == 2, "\(report)")
        let files = try s.files().values
        #expect(files.contains { $0.contains("SUMMARY:Moved far") && $0.contains("2040") }, "\(files)")
        #expect(!files.contains { $0.contains("SUMMARY:Deleted") })
        #expect(files.contains { $0.contains("SUMMARY:Daily") && $0.contains("EXDATE") }, "\(files)")
    }

    /// The window Graph lists a calendar over moves on with time (each month) and starts a new
    /// listing that leaves out what fell behind it, and never held what lies beyond it: an event
    /// the vdir has is asked for before it counts as deleted, so it stays, still follows its
    /// changes, and goes when it is deleted in Outlook.
    @Test func whatTheWindowLeavesBehindIsKeptNotDeleted() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        _ = try await s.outlookCreates(Self.single("Old", days: -100))
        let gone = try await s.outlookCreates(Self.single("Old and deleted", days: -90))
        let start = Setup.time(-120, 8)
        _ = try await s.outlookCreates([
            "subject": "Old weekly", "start": ["dateTime": start, "timeZone": "UTC"],
            "end": ["dateTime": Setup.time(-120, 9), "timeZone": "UTC"],
            "recurrence": [
                "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": [Self.weekday(-120)]],
                "range": ["type": "numbered", "startDate": String(start.prefix(10)), "numberOfOccurrences": 3],
            ],
        ])
        _ = try await s.outlookCreates(Self.single("Soon", days: 5))
        var report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.local == 4, "\(report)")
        try Data(
            TestEvent.ics(
                uid: "far-ahead", summary: "Far ahead",
                start: "\(Setup.time(40, 15).filter { $0 != "-" && $0 != ":" })Z",
                end: "\(Setup.time(40, 16).filter { $0 != "-" && $0 != ":" })Z"
            ).utf8
        )
        .write(to: s.local.directory.url.appendingPathComponent("far-ahead.ics"))
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.remote == 1, "\(report)")

        // Later: the window starts after the old events and ends before the one made here.
        try await s.graph.graph("DELETE", "/me/events/\(gone)")
        report = try await s.sync(window: "-30d..+20d")
        #expect(report.errors.isEmpty, "\(report)")
        #expect(report.deleted.local == 1 && report.deleted.remote == 0, "\(report)")
        #expect(report.created.total + report.updated.total == 0, "\(report)")
        var files = try s.files().values
        #expect(files.count == 4, "\(files)")
        for summary in ["Old", "Old weekly", "Soon", "Far ahead"] {
            #expect(files.contains { $0.contains("SUMMARY:\(summary)\r\n") }, "\(summary): \(files)")
        }

        // The vdir's edit of an event behind the window still reaches Outlook.
        let old = try s.files().first { $0.value.contains("SUMMARY:Old\r\n") }!
        try Data(old.value.replacingOccurrences(of: "SUMMARY:Old\r\n", with: "SUMMARY:Old, renamed\r\n").utf8)
            .write(to: s.local.directory.url.appendingPathComponent(old.key))
        try await s.graph.control("POST", "delta/expire")
        report = try await s.sync(window: "-30d..+20d")
        #expect(report.errors.isEmpty && report.updated.remote == 1 && report.deleted.total == 0, "\(report)")
        let subjects = try await s.graph.listed("subject", at: "/me/calendar/events?$top=50")
        #expect(subjects.contains("Old, renamed"), "\(subjects)")
        files = try s.files().values
        #expect(files.count == 4, "\(files)")
    }

    /// Outlook cannot bring back an occurrence cancelled there: a vdir edit that drops the
    /// EXDATE gets the rest of its changes through, is told so, and gets the EXDATE back in the
    /// same run, so both sides agree and the next run has nothing to do.
    @Test func anOccurrenceCancelledInOutlookStaysCancelledAndTheRunSaysSo() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let day = Setup.time(10, 8).filter { $0 != "-" && $0 != ":" }
        try Data(
            TestEvent.ics(
                uid: "daily", summary: "Daily", start: "\(day)Z", end: "\(day.prefix(9))090000Z",
                extra: ["RRULE:FREQ=DAILY;COUNT=3"]
            ).utf8
        ).write(to: s.local.directory.url.appendingPathComponent("daily.ics"))
        var report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.remote == 1, "\(report)")
        let series = try await #require(try s.graph.listed("id", at: "/me/calendar/events").first)
        let ids = try await s.graph.listed(
            "id",
            at: "/me/events/\(series)/instances?startDateTime=\(Setup.time(9, 0))Z&endDateTime=\(Setup.time(14, 0))Z")
        #expect(ids.count == 3)
        try await s.graph.graph("DELETE", "/me/events/\(ids[1])")
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.local == 1, "\(report)")
        let file = s.local.directory.url.appendingPathComponent("daily.ics")
        let pulled = try String(contentsOf: file, encoding: .utf8)
        #expect(pulled.contains("EXDATE"), "\(pulled)")

        // The vdir brings the occurrence back, and renames the series.
        let edited = pulled.split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("EXDATE") }.joined(separator: "\r\n")
            .replacingOccurrences(of: "SUMMARY:Daily", with: "SUMMARY:Daily standup")
        try Data(edited.utf8).write(to: file)
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.remote == 1, "\(report)")
        #expect(report.notes.contains { $0.contains("cannot bring back") && $0.contains("Daily standup") }, "\(report)")
        let now = try String(contentsOf: file, encoding: .utf8)
        #expect(now.contains("EXDATE") && now.contains("SUMMARY:Daily standup"), "\(now)")
        await #expect(try s.graph.listed("subject", at: "/me/calendar/events").contains("Daily standup"))
        report = try await s.sync()
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
        #expect(report.notes.isEmpty, "\(report)")
    }

    /// Another client (Outlook on the web) edits the event between calgw's listing and its
    /// write: the write is refused on the change key, read again and merged, and both edits
    /// are kept on both sides.
    @Test func anEditInOutlookDuringTheRunIsMergedNotOverwritten() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let lunch = try await s.outlookCreates(Self.single("Lunch", days: 7))
        var report = try await s.sync()
        #expect(report.created.local == 1, "\(report)")
        let file = try #require(try s.files().first { $0.value.contains("SUMMARY:Lunch") })
        try Data(file.value.replacingOccurrences(of: "SUMMARY:Lunch", with: "SUMMARY:Long lunch").utf8)
            .write(to: s.local.directory.url.appendingPathComponent(file.key))
        try await s.graph.control(
            "POST", "faults",
            json: ["kind": "editFirst", "method": "PATCH", "body": ["location": ["displayName": "Canteen"]]])

        report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report)")
        let event = try await s.graph.graph("GET", "/me/events/\(lunch)").body as? [String: Any]
        #expect(event?["subject"] as? String == "Long lunch", "\(String(describing: event))")
        #expect((event?["location"] as? [String: Any])?["displayName"] as? String == "Canteen")
        let now = try String(contentsOf: s.local.directory.url.appendingPathComponent(file.key), encoding: .utf8)
        #expect(now.contains("SUMMARY:Long lunch") && now.contains("LOCATION:Canteen"), "\(now)")
        let requests = try await s.graph.requests().filter { ($0["method"] as? String) == "PATCH" }
        #expect(requests.contains { ($0["status"] as? Int) == 412 }, "the first write was not refused: \(requests)")
        report = try await s.sync()
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
    }

    static func weekday(_ days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        return names[calendar.component(.weekday, from: Date().addingTimeInterval(TimeInterval(days) * 86_400)) - 1]
    }

    /// A run that finds nothing new is one request, also after a run that wrote to Outlook:
    /// that run keeps its listing's token, whose next round reports calgw's own writes at the
    /// versions the journal holds, instead of listing the calendar from the start again.
    @Test func aRunThatFindsNothingNewIsOneRequest() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        for day in 1...30 { _ = try await s.outlookCreates(Self.single("Day \(day)", days: day)) }
        _ = try await s.sync()
        var before = try await s.graph.requests().count
        var report = try await s.sync()
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
        await #expect(try s.graph.requests().count - before == 1)

        try Data(
            TestEvent.ics(uid: "made-here", summary: "Made here", start: "20270105T100000Z", end: "20270105T110000Z")
                .utf8
        ).write(to: s.local.directory.url.appendingPathComponent("made-here.ics"))
        report = try await s.sync()
        #expect(report.created.remote == 1, "\(report)")
        before = try await s.graph.requests().count
        report = try await s.sync()
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
        let requests = try await s.graph.requests()
        #expect(requests.count - before <= 2, "\(requests.suffix(requests.count - before).map { $0["path"] ?? "" })")
        before = requests.count
        report = try await s.sync()
        await #expect(try s.graph.requests().count - before == 1)
    }

    /// A calendar with series: the run after one that wrote a local change is one request
    /// (the write's run keeps the folder's commit stamp its writes left), and an occurrence
    /// deleted in Outlook afterwards is still found at the next run.
    @Test func aRunAfterALocalChangeIsOneRequestWithSeries() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let series = try await s.outlookCreates(Self.dailySeries("Standup", days: 2, count: 3))
        for day in 1...4 { _ = try await s.outlookCreates(Self.single("Day \(day)", days: day)) }
        var report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.local == 5, "\(report)")

        let (name, text) = try #require(try s.files().first { $0.value.contains("SUMMARY:Day 2") })
        try Data(text.replacingOccurrences(of: "SUMMARY:Day 2", with: "SUMMARY:Day 2 (edited)").utf8)
            .write(to: s.local.directory.url.appendingPathComponent(name))
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.remote == 1, "\(report)")
        var before = try await s.graph.requests().count
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.total + report.updated.total + report.deleted.total == 0)
        var made = try await s.graph.requests().dropFirst(before).compactMap { $0["path"] as? String }
        #expect(made == ["/v1.0/$batch"], "\(made)")

        let ids = try await s.graph.listed(
            "id",
            at: "/me/events/\(series)/instances?startDateTime=\(Setup.time(1, 0))Z&endDateTime=\(Setup.time(6, 0))Z")
        #expect(ids.count == 3)
        try await s.graph.graph("DELETE", "/me/events/\(ids[1])")
        before = try await s.graph.requests().count
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.local == 1, "\(report)")
        let file = try s.files().values.first { $0.contains("SUMMARY:Standup") } ?? ""
        #expect(file.contains("EXDATE"), "\(file)")
        made = try await s.graph.requests().dropFirst(before).compactMap { $0["path"] as? String }
        #expect(made.count >= 2, "the round, then the series asked: \(made)")
    }

    /// A folder that gives no commit stamp (the fake's `commitStamp: 0`): every round asks
    /// every series, as it cannot know the folder unchanged, and an occurrence deleted in
    /// Outlook is found.
    @Test func withoutACommitStampEveryRoundAsksEverySeries() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        #expect(try await s.graph.control("POST", "settings", json: ["commitStamp": 0]).status == 200)
        let series = try await s.outlookCreates(Self.dailySeries("Standup", days: 2, count: 3))
        _ = try await s.outlookCreates(Self.single("Day 1", days: 1))
        var report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.local == 2, "\(report)")
        let before = try await s.graph.requests().count
        report = try await s.sync()
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
        let made = try await s.graph.requests().dropFirst(before).compactMap { $0["path"] as? String }
        #expect(made == ["/v1.0/$batch", "/v1.0/$batch"], "the round, then the series: \(made)")

        let ids = try await s.graph.listed(
            "id",
            at: "/me/events/\(series)/instances?startDateTime=\(Setup.time(1, 0))Z&endDateTime=\(Setup.time(6, 0))Z")
        try await s.graph.graph("DELETE", "/me/events/\(ids[2])")
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.local == 1, "\(report)")
        let file = try s.files().values.first { $0.contains("SUMMARY:Standup") } ?? ""
        #expect(file.contains("EXDATE"), "\(file)")
    }

    /// A daily series of `count` occurrences from `days` ahead, 07:00–08:00 UTC.
    static func dailySeries(_ subject: String, days: Int, count: Int) -> [String: Any] {
        let start = Setup.time(days, 7)
        return [
            "subject": subject, "start": ["dateTime": start, "timeZone": "UTC"],
            "end": ["dateTime": Setup.time(days, 8), "timeZone": "UTC"],
            "recurrence": [
                "pattern": ["type": "daily", "interval": 1],
                "range": ["type": "numbered", "startDate": String(start.prefix(10)), "numberOfOccurrences": count],
            ],
        ]
    }
}
