import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// An update of an Outlook event sends only what the item changes, after comparing the
/// event's change key: what Graph does with a whole body (drops a Teams meeting's join block,
/// mails a series' attendees once per exception), and an `If-Match` Graph may not honour, are
/// then never reached.
@Suite(.timeLimit(.minutes(10))) struct GraphUpdateTests {
    typealias Setup = GraphStorageTests.Setup

    /// The file of the event whose SUMMARY is `summary`, and its text.
    static func file(_ s: Setup, summary: String) throws -> (URL, String) {
        let (name, text) = try #require(try s.files().first { $0.value.contains("SUMMARY:\(summary)\r\n") })
        return (s.local.directory.url.appendingPathComponent(name), text)
    }

    /// A Teams meeting "Review" made in Outlook with the notes "Agenda: the figures.", synced
    /// into the vdir: its id.
    static func teamsMeetingSynced(_ s: Setup) async throws -> String {
        var teams = GraphStorageTests.single("Review", days: 4)
        teams["isOnlineMeeting"] = true
        teams["onlineMeetingProvider"] = "teamsForBusiness"
        teams["body"] = ["contentType": "text", "content": "Agenda: the figures."]
        let id = try await s.outlookCreates(teams)
        let report = try await s.sync()
        #expect(report.errors.isEmpty && report.created.local == 1, "\(report)")
        return id
    }

    /// A Teams meeting's title edited in the vdir, by an editor that also drops the HTML form
    /// of its notes (`X-ALT-DESC`): the PATCH carries the title (and calgw's properties), not
    /// the body, so the join block Outlook put in it stays and the meeting stays online (a
    /// body written over it would drop both, event-update.md).
    @Test func aTitleEditOfATeamsMeetingKeepsItsJoinBlock() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let id = try await Self.teamsMeetingSynced(s)
        var report: SyncReport
        let (url, text) = try Self.file(s, summary: "Review")
        #expect(text.contains("X-ALT-DESC"), "\(text)")
        let lines = text.components(separatedBy: "\r\n")
        var kept: [String] = []
        for line in lines where !(line.hasPrefix(" ") && kept.last?.hasPrefix("X-ALT-DESC") == true) {
            kept.append(line)
        }
        let edited = kept.filter { !$0.hasPrefix("X-ALT-DESC") }.joined(separator: "\r\n")
        try Data(edited.replacingOccurrences(of: "SUMMARY:Review", with: "SUMMARY:Quarterly review").utf8).write(
            to: url)
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.remote == 1, "\(report)")
        let event = try #require(try await s.graph.graph("GET", "/me/events/\(id)").body as? [String: Any])
        #expect(event["subject"] as? String == "Quarterly review")
        let join = (event["onlineMeeting"] as? [String: Any])?["joinUrl"] as? String
        #expect(event["isOnlineMeeting"] as? Bool == true && join != nil, "\(event)")
        let body = (event["body"] as? [String: Any])?["content"] as? String ?? ""
        #expect(join.map(body.contains) == true, "\(body)")
        let patched = try await s.graph.requests().filter { $0["method"] as? String == "PATCH" }
        #expect(patched.count == 1 && (patched.first?["fields"] as? [String])?.contains("body") == false, "\(patched)")
    }

    /// Notes edited in the vdir over a Teams meeting: the body is written with the meeting's
    /// join block kept after the new notes (without it the meeting is no longer online), and
    /// the block's words, which DESCRIPTION holds as read, are not written twice.
    @Test func aNotesEditOfATeamsMeetingKeepsItsJoinBlock() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let id = try await Self.teamsMeetingSynced(s)
        var report: SyncReport
        let (url, text) = try Self.file(s, summary: "Review")
        #expect(text.contains("Microsoft Teams meeting"), "\(text)")
        try Data(
            text.replacingOccurrences(of: "Agenda: the figures.", with: "Agenda: the figures and the budget.").utf8
        )
        .write(to: url)
        report = try await s.sync()
        #expect(report.errors.isEmpty && report.updated.remote == 1, "\(report)")
        let event = try #require(try await s.graph.graph("GET", "/me/events/\(id)").body as? [String: Any])
        let join = (event["onlineMeeting"] as? [String: Any])?["joinUrl"] as? String
        #expect(event["isOnlineMeeting"] as? Bool == true && join != nil, "\(event)")
        let body = (event["body"] as? [String: Any])?["content"] as? String ?? ""
        #expect(body.contains("the budget") && join.map(body.contains) == true, "\(body)")
        #expect(body.components(separatedBy: "Microsoft Teams meeting").count == 2, "the block once: \(body)")
        report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report)")
        let (_, after) = try Self.file(s, summary: "Review")
        #expect(
            after.contains("the budget") && after.components(separatedBy: "Microsoft Teams meeting").count == 2,
            "the file as the person wrote it, the block's words once: \(after)")
    }

    /// The organizer's own edit of a series with exceptions that leaves its times alone (the
    /// person's action, as `calgw event edit` sends it): the PATCH carries no time, pattern or
    /// attendees, the exceptions are not written again, and nobody is mailed (Graph mails the
    /// attendees once per exception for a master PATCHed with them).
    @Test func aMasterEditThatLeavesItsTimesSendsNoTimesAndMailsNobody() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        let start = Setup.time(8, 9)
        let series = try await s.outlookCreates([
            "subject": "Planning", "start": ["dateTime": start, "timeZone": "UTC"],
            "end": ["dateTime": Setup.time(8, 10), "timeZone": "UTC"],
            "attendees": [["emailAddress": ["address": "bob@example.org", "name": "Bob"], "type": "required"]],
            "recurrence": [
                "pattern": ["type": "daily", "interval": 1],
                "range": ["type": "numbered", "startDate": String(start.prefix(10)), "numberOfOccurrences": 4],
            ],
        ])
        let ids = try await s.graph.listed(
            "id",
            at: "/me/events/\(series)/instances?startDateTime=\(Setup.time(7, 0))Z&endDateTime=\(Setup.time(13, 0))Z")
        #expect(ids.count == 4)
        for index in [1, 2] {
            try await s.graph.graph("PATCH", "/me/events/\(ids[index])", json: ["subject": "Planning \(index)"])
        }
        let remote = try s.remote()
        _ = try await SyncEngine(local: s.local, remote: remote, journal: s.journal).run()
        let held = try #require(try await remote.fetch([ItemHref(series)]).first)
        try await s.graph.control("DELETE", "ledger")
        let before = try await s.graph.requests().count

        let text = String(decoding: held.data, as: UTF8.self)
        let edited = text.replacingOccurrences(of: "SUMMARY:Planning\r\n", with: "SUMMARY:Planning (room 4)\r\n")
        #expect(edited != text)
        _ = try await remote.update(
            href: held.href, data: Data(edited.utf8), ifMatch: held.etag, as: .personsAction)

        let made = try await s.graph.requests().dropFirst(before)
        let patches = made.filter { $0["method"] as? String == "PATCH" }
        #expect(patches.count == 1, "the exceptions were written again: \(patches)")
        let fields = Set(patches.first?["fields"] as? [String] ?? [])
        #expect(fields.isDisjoint(with: ["start", "end", "recurrence", "attendees", "isAllDay"]), "\(fields)")
        #expect(fields.contains("subject"), "\(fields)")
        await #expect(try s.graph.ledger().isEmpty)
        let instances = try await s.graph.listed(
            "subject",
            at: "/me/events/\(series)/instances?startDateTime=\(Setup.time(7, 0))Z&endDateTime=\(Setup.time(13, 0))Z")
        #expect(instances == ["Planning (room 4)", "Planning 1", "Planning 2", "Planning (room 4)"], "\(instances)")
    }

    /// Another client's edit between calgw's listing and its write, on a Graph that ignores
    /// `If-Match` (the fake's `honoursIfMatch: 0`): the change key read just before the write
    /// differs, so the write is refused as a stale `If-Match` is, the event read again and
    /// merged: Outlook's edit is kept beside the vdir's.
    @Test func anEditAfterTheListingIsNotOverwrittenWhereIfMatchIsIgnored() async throws {
        let s = try await Setup()
        defer { s.graph.stop(); s.folder.remove() }
        #expect(try await s.graph.control("POST", "settings", json: ["honoursIfMatch": 0]).status == 200)
        let lunch = try await s.outlookCreates(GraphStorageTests.single("Lunch", days: 5))
        var report = try await s.sync()
        #expect(report.created.local == 1, "\(report)")
        let (url, text) = try Self.file(s, summary: "Lunch")
        try Data(text.replacingOccurrences(of: "SUMMARY:Lunch", with: "SUMMARY:Long lunch").utf8).write(to: url)
        // Outlook on the web sets the place just after calgw's delta round was answered.
        try await s.graph.control(
            "POST", "faults",
            json: [
                "kind": "editFirst", "after": true, "method": "GET", "path": "calendarView/delta", "id": lunch,
                "body": ["location": ["displayName": "Canteen"]],
            ])
        report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report)")
        let event = try #require(try await s.graph.graph("GET", "/me/events/\(lunch)").body as? [String: Any])
        #expect(event["subject"] as? String == "Long lunch", "\(event)")
        #expect((event["location"] as? [String: Any])?["displayName"] as? String == "Canteen", "\(event)")
        let now = try String(contentsOf: url, encoding: .utf8)
        #expect(now.contains("SUMMARY:Long lunch") && now.contains("LOCATION:Canteen"), "\(now)")
    }
}
