import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync
import Failures
import HTTP

/// What real Microsoft Graph does that a kind fake would not, each switched on in the fake as a
/// fault (Scripts/graph/README.md cites where each is reported), and what calgw does about it.
@Suite(.timeLimit(.minutes(10))) struct GraphRealBehaviourTests {
    typealias Setup = GraphStorageTests.Setup

    /// Endless delta paging (msgraph-sdk-dotnet #3082, #3070): the same page again and again,
    /// each time under a new `@odata.nextLink`. The round stops by itself at the second such
    /// page, the run fails with nothing written, and once Graph behaves the next run converges.
    @Test func endlessPagesUnderNewLinksStopTheRunWithNothingChanged() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        for day in 1...12 { _ = try await s.outlookCreates(GraphStorageTests.single("Day \(day)", days: day)) }
        let fault = try await s.graph.control("POST", "faults", json: ["kind": "endlessPages", "count": 1_000_000])
        #expect(fault.status == 201, "\(fault)")
        let started = ContinuousClock.now
        await #expect {
            _ = try await s.sync(pageSize: 5)
        } throws: { error in
            let message = (error as? GraphError)?.message ?? "\(error)"
            return message.contains("it had given before") && message.contains("nothing was changed")
        }
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(try s.files().isEmpty)
        let asked = try await s.graph.requests().filter { ($0["path"] as? String)?.contains("delta") == true }.count
        #expect(asked <= 4, "paged \(asked) times before stopping")
        try await s.graph.control("DELETE", "faults")
        let report = try await s.sync(pageSize: 5)
        #expect(report.errors.isEmpty && report.created.local == 12, "\(report)")
    }

    /// Empty pages without end (nothing to compare, each under a new link) are bounded too.
    @Test func endlessEmptyPagesAreBounded() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        _ = try await s.outlookCreates(GraphStorageTests.single("One", days: 1))
        try await s.graph.control("POST", "faults", json: ["kind": "endlessPages", "empty": true, "count": 1_000_000])
        let remote = try s.remote()
        remote.bounds.emptyPages = 30
        await #expect {
            _ = try await SyncEngine(local: s.local, remote: remote, journal: s.journal).run()
        } throws: { error in
            ((error as? GraphError)?.message ?? "\(error)").contains("without end")
        }
        #expect(try s.files().isEmpty)
    }

    /// A page of an endless series that times out (504, docs #6499, #3657) is asked again by
    /// the HTTP client, then stops the run with what to do about it.
    @Test func aDeltaPageThatTimesOutStopsWithAClearMessage() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        for day in 1...8 { _ = try await s.outlookCreates(GraphStorageTests.single("Day \(day)", days: day)) }
        try await s.graph.control("POST", "faults", json: ["status": 504, "path": "delta", "count": 100])
        await #expect {
            _ = try await s.sync(pageSize: 5)
        } throws: { error in
            // The storage's error, under the run's "cannot read the remote side".
            let graph = (error as? GraphError) ?? ((error as? any ExplainedError)?.cause as? GraphError)
            return graph?.message.contains("did not give a page") == true
                && graph?.recovery?.contains("narrower window") == true
        }
        let timedOut = try await s.graph.requests().filter { ($0["status"] as? Int) == 504 }.count
        #expect(timedOut > 1, "the page was not asked again: \(timedOut)")
        #expect(try s.files().isEmpty)
    }

    /// An expired delta link, refused as Graph writes it in each of its spellings (410
    /// `SyncStateNotFound`, 400 `fullSyncRequired`): the calendar is listed again, nothing
    /// lost or doubled.
    @Test(arguments: [(410, "SyncStateNotFound"), (400, "fullSyncRequired"), (410, "syncStateNotFound")])
    func anExpiredLinkInAnySpellingRelists(status: Int, code: String) async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        _ = try await s.outlookCreates(GraphStorageTests.single("One", days: 2))
        var report = try await s.sync()
        #expect(report.created.local == 1, "\(report)")
        try await s.graph.control("POST", "delta/expire", json: ["status": status, "code": code])
        _ = try await s.outlookCreates(GraphStorageTests.single("Two", days: 3))
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.local == 1 && report.deleted.total == 0, "\(status) \(code)")
        #expect(try s.files().count == 2)
    }

    /// Spurious 412 `ErrorIrresolvableConflict` on plain reads (Microsoft Q&A 271870; Analog
    /// #475), one read in three here, inside `$batch` and out: the reads are asked again, and
    /// the run succeeds.
    @Test func spuriousConflictsOnReadsAreAskedAgain() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        for day in 1...6 { _ = try await s.outlookCreates(GraphStorageTests.single("Day \(day)", days: day)) }
        try await s.graph.control(
            "POST", "faults", json: ["status": 412, "method": "GET", "every": 3, "count": 1_000])
        let report = try await s.sync(pageSize: 5)
        #expect(report.errors.isEmpty && report.created.local == 6, "\(report)")
        let refused = try await s.graph.requests().filter { ($0["status"] as? Int) == 412 }.count
        #expect(refused > 0, "no read was refused: the fault did not apply")
    }

    /// `transactionId` is mailbox-wide and single-use (corso #2490): the same file created in
    /// two calendars of the mailbox makes one event in each, bound to its own calendar.
    @Test func theSameFileInTwoCalendarsMakesAnEventInEach() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let made = try await s.graph.graph("POST", "/me/calendars", json: ["name": "Team"])
        let team = try #require((made.body as? [String: Any])?["id"] as? String)
        let data = TestEvent.data(uid: "shared-1", summary: "Shared", start: "20270105T100000Z", duration: "PT1H")
        let inDefault = try await s.remote().create(data, suggestedName: "shared-1", as: .copy)
        let token = s.graph.token
        let http = try HTTPClient(configuration: .init(authentication: .bearer(BearerTokenProvider { token })))
        let teamStorage = try GraphStorage(
            http: http, calendar: s.graph.url.appendingPathComponent("me/calendars/\(team)"))
        let inTeam = try await teamStorage.create(data, suggestedName: "shared-1", as: .copy)
        #expect(inTeam.href != inDefault.href, "both files are bound to one event")
        #expect(try await s.graph.listed("subject", at: "/me/calendars/\(team)/events") == ["Shared"])
        #expect(try await s.graph.listed("subject", at: "/me/calendar/events") == ["Shared"])
        // Each write goes to its own calendar's event.
        let edited = TestEvent.data(uid: "shared-1", summary: "Team's", start: "20270105T100000Z", duration: "PT1H")
        _ = try await teamStorage.update(href: inTeam.href, data: edited, ifMatch: inTeam.etag, as: .copy)
        #expect(try await s.graph.listed("subject", at: "/me/calendar/events") == ["Shared"])
    }

    /// An event deleted in Outlook whose file is created again (a restore, or a vdir written
    /// back): Graph refuses the used `transactionId`; the event is made again under a new one.
    @Test func anEventDeletedInOutlookCanBeCreatedAgain() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let data = TestEvent.data(uid: "again-1", summary: "Again", start: "20270105T100000Z", duration: "PT1H")
        let first = try await s.remote().create(data, suggestedName: "again-1", as: .copy)
        #expect(try await s.graph.graph("DELETE", "/me/events/\(first.href.value)").status == 204)
        let second = try await s.remote().create(data, suggestedName: "again-1", as: .copy)
        #expect(second.href != first.href)
        #expect(try await s.graph.listed("subject", at: "/me/calendar/events") == ["Again"])
        // Created again with its answer lost: the used id is refused, and the event is found by its UID.
        let third = try await s.remote().create(data, suggestedName: "again-1", as: .copy)
        #expect(third.href == second.href)
        #expect(try await s.graph.listed("subject", at: "/me/calendar/events") == ["Again"])
    }

    /// An all-day series made in Outlook in Pacific time: Graph writes each occurrence's
    /// `originalStart` as local midnight in UTC (08:00Z, docs-contrib #7803). An EXDATE and an
    /// override made in the vdir reach those occurrences.
    @Test func anAllDaySeriesInAZoneTakesTheVdirsExceptions() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let id = try await s.outlookCreates([
            "subject": "Trash day", "isAllDay": true,
            "start": ["dateTime": "2027-01-04T00:00:00", "timeZone": "Pacific Standard Time"],
            "end": ["dateTime": "2027-01-05T00:00:00", "timeZone": "Pacific Standard Time"],
            "recurrence": [
                "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"], "firstDayOfWeek": "sunday"],
                "range": [
                    "type": "numbered", "startDate": "2027-01-04", "numberOfOccurrences": 4,
                    "recurrenceTimeZone": "Pacific Standard Time",
                ],
            ],
        ])
        var report = try await s.sync()
        #expect(report.created.local == 1, "\(report)")
        let (name, text) = try #require(try s.files().first)
        // The second Monday cancelled, the third moved to the Tuesday, in the vdir.
        var lines = text.components(separatedBy: "\r\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("DTSTART") })
        lines.insert("EXDATE;VALUE=DATE:20270111", at: start + 1)
        // The UID line with its folded continuations (Graph's UIDs are long).
        let uidAt = try #require(lines.firstIndex { $0.hasPrefix("UID:") })
        let uid = [lines[uidAt]] + lines[(uidAt + 1)...].prefix { $0.hasPrefix(" ") }
        let end = try #require(lines.lastIndex(of: "END:VEVENT"))
        lines.insert(
            contentsOf: ["BEGIN:VEVENT"] + uid + [
                "DTSTAMP:20270101T000000Z", "RECURRENCE-ID;VALUE=DATE:20270118",
                "DTSTART;VALUE=DATE:20270119", "DTEND;VALUE=DATE:20270120", "SUMMARY:Trash day (moved)", "END:VEVENT",
            ], at: end + 1)
        try Data(lines.joined(separator: "\r\n").utf8).write(to: s.local.directory.url.appendingPathComponent(name))
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.remote == 1, "\(report)")
        let listed = try await s.graph.graph(
            "GET", "/me/events/\(id)/instances?startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-02-15T00:00:00Z")
        let starts = TestGraphServer.values(listed).compactMap {
            ($0["start"] as? [String: Any])?["dateTime"] as? String
        }
        #expect(
            starts.map { String($0.prefix(10)) }.sorted() == ["2027-01-04", "2027-01-19", "2027-01-25"], "\(starts)")
        let moved = TestGraphServer.values(listed).first { ($0["subject"] as? String) == "Trash day (moved)" }
        #expect(moved != nil, "\(listed)")
    }

    /// An occurrence deleted in Outlook leaves no trace in delta (docs PR #4501; occurrences
    /// are stubs there, docs-contrib #5602): the series' master is asked each round, and the
    /// deletion reaches the vdir as an EXDATE.
    @Test func anOccurrenceDeletedInOutlookReachesTheVdir() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let id = try await s.outlookCreates([
            "subject": "Standup",
            "start": ["dateTime": "2027-01-04T09:00:00", "timeZone": "W. Europe Standard Time"],
            "end": ["dateTime": "2027-01-04T09:15:00", "timeZone": "W. Europe Standard Time"],
            "recurrence": [
                "pattern": ["type": "daily", "interval": 1],
                "range": [
                    "type": "numbered", "startDate": "2027-01-04", "numberOfOccurrences": 5,
                    "recurrenceTimeZone": "W. Europe Standard Time",
                ],
            ],
        ])
        var report = try await s.sync()
        #expect(report.created.local == 1, "\(report)")
        let listed = try await s.graph.graph(
            "GET", "/me/events/\(id)/instances?startDateTime=2027-01-01T00:00:00Z&endDateTime=2027-02-01T00:00:00Z")
        let third = try #require(
            TestGraphServer.values(listed).first {
                (($0["start"] as? [String: Any])?["dateTime"] as? String)?.hasPrefix("2027-01-06") == true
            }?["id"] as? String)
        #expect(try await s.graph.graph("DELETE", "/me/events/\(third)").status == 204)
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.local == 1, "\(report)")
        let text = try #require(try s.files().values.first)
        #expect(text.contains("EXDATE") && text.contains("20270106"), "\(text)")
    }
}
