import Foundation
import Testing
import CalgwTestSupport

/// An account pair over a Microsoft Graph mailbox (`collections` with `remote = "…/me/"`) runs
/// as a CalDAV account does (one account run for every provider): it honours a list of
/// collections and `--collection`, shows one progress bar, goes on past a calendar that fails,
/// and refuses a mass deletion as such.
@Suite(.timeLimit(.minutes(10))) struct GraphAccountTests {
    /// A fresh Graph fake and a mailbox pair (`collections`) over it, with its vdir of
    /// calendars in a temporary folder.
    struct MailboxPair {
        let graph: TestGraphServer
        let folder: TemporaryFolder
        let vdir: URL
        let config: URL

        init(collections: String = "\"all\"") async throws {
            graph = try await TestGraphServer()
            folder = try TemporaryFolder()
            vdir = folder.file("calendars")
            config = try GraphPairTests.config(
                pair: "mail", local: vdir, remote: "/me/", graph: graph, in: folder,
                extra: ["collections = \(collections)"])
        }

        func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(arguments + ["--config", config.path])
        }

        func remove() {
            graph.stop()
            folder.remove()
        }
    }

    /// A mailbox with the calendars `names` (besides its default "Calendar"), each holding one
    /// event "<name> event"; their ids by name.
    static func mailbox(_ graph: TestGraphServer, calendars names: [String]) async throws -> [String: String] {
        var ids: [String: String] = [:]
        for name in names {
            let made = try await graph.graph("POST", "/me/calendars", json: ["name": name])
            ids[name] = (made.body as? [String: Any])?["id"] as? String ?? ""
            try await event("\(name) event", in: ids[name]!, graph)
        }
        return ids
    }

    static func event(_ subject: String, in calendar: String, _ graph: TestGraphServer) async throws {
        let made = try await graph.graph(
            "POST", "/me/calendars/\(calendar)/events",
            json: [
                "subject": subject, "start": ["dateTime": "2027-01-08T15:00:00", "timeZone": "UTC"],
                "end": ["dateTime": "2027-01-08T16:00:00", "timeZone": "UTC"],
            ])
        #expect(made.status == 201, "\(made)")
    }

    static func ics(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".ics") }
    }

    static func subfolders(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }
            .sorted()
    }

    /// `collections = ["Team", "personal"]`: only those folders are made and synced (a new
    /// folder outside the list gets no calendar); `--collection Team` then syncs Team alone.
    @Test func aMailboxHonoursItsCollectionsAndTheCollectionFlag() async throws {
        let pair = try await MailboxPair(collections: "[\"Team\", \"personal\"]")
        defer { pair.remove() }
        let graph = pair.graph, vdir = pair.vdir
        for name in ["personal", "scratch"] {
            let url = vdir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try TestEvent.data(uid: "\(name)-1", summary: "\(name) 1", end: "20270110T110000Z")
                .write(to: url.appendingPathComponent("\(name)-1.ics"))
        }
        let ids = try await Self.mailbox(graph, calendars: ["Team", "Trips"])
        let first = try await pair.calgw(["sync"])
        #expect(first.status == 0, "\(first.stdoutText)\(first.stderrText)")
        #expect(Self.subfolders(vdir) == ["Team", "personal", "scratch"], "\(Self.subfolders(vdir))")
        #expect(Self.ics(in: vdir.appendingPathComponent("Team")).count == 1)
        #expect(
            try await graph.listed("name", at: "/me/calendars").sorted() == ["Calendar", "Team", "Trips", "personal"])

        // Changes in both listed calendars, a new folder in the list; --collection Team takes Team alone.
        try await Self.event("Team second", in: ids["Team"]!, graph)
        try TestEvent.data(uid: "personal-2", summary: "personal 2", end: "20270111T110000Z")
            .write(to: vdir.appendingPathComponent("personal/personal-2.ics"))
        let only = try await pair.calgw(["sync", "--collection", "Team", "--json"])
        #expect(only.status == 0, "\(only.stdoutText)\(only.stderrText)")
        #expect(Self.ics(in: vdir.appendingPathComponent("Team")).count == 2)
        let personal = try await graph.graph("GET", "/me/calendars").body
        let personalID =
            ((personal as? [String: Any])?["value"] as? [[String: Any]])?.first {
                $0["name"] as? String == "personal"
            }?[
                "id"] as? String ?? ""
        #expect(try await graph.listed("subject", at: "/me/calendars/\(personalID)/events") == ["personal 1"])
        let unknown = try await pair.calgw(["sync", "--collection", "Trips"])
        #expect(unknown.status == 2 && unknown.stderrText.contains("no collection Trips"), "\(unknown.stderrText)")
    }

    /// A calendar whose listing fails (Outlook's Birthdays and holiday calendars can refuse
    /// delta) is an error naming its folder; the calendars after it still sync; exit 1.
    @Test func aFailingCalendarIsNamedAndTheOthersSync() async throws {
        let pair = try await MailboxPair()
        defer { pair.remove() }
        let graph = pair.graph, vdir = pair.vdir
        let ids = try await Self.mailbox(graph, calendars: ["Birthdays", "Team"])
        let fault = try await graph.control(
            "POST", "faults",
            json: [
                "status": 400, "code": "ErrorInvalidRequest", "message": "This calendar does not support delta.",
                "path": "\(ids["Birthdays"]!.prefix(24))", "method": "GET", "count": 100,
            ])
        #expect(fault.status == 201, "\(fault)")
        let r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 1, "\(r.stdoutText)\(r.stderrText)")
        let report = (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
        let errors = (report["errors"] as? [String]) ?? []
        #expect(
            errors.count == 1 && errors[0].hasPrefix("Birthdays: ") && errors[0].contains("does not support delta"),
            "\(errors)")
        #expect(Self.ics(in: vdir.appendingPathComponent("Team")).count == 1, "Team did not sync: \(r.stdoutText)")
        #expect(Self.ics(in: vdir.appendingPathComponent("Calendar")).isEmpty)
        #expect(FileManager.default.fileExists(atPath: vdir.appendingPathComponent("Calendar").path))
    }

    /// Emptying one folder of the mailbox is refused as a mass deletion (exit 4) when that
    /// calendar alone is synced with `--collection`, not taken for an unknown collection.
    @Test func aMassDeletionInOneCalendarIsRefusedAsSuch() async throws {
        let pair = try await MailboxPair()
        defer { pair.remove() }
        let graph = pair.graph, vdir = pair.vdir
        let ids = try await Self.mailbox(graph, calendars: ["Team"])
        for i in 2...4 { try await Self.event("Team \(i)", in: ids["Team"]!, graph) }
        #expect(try await pair.calgw(["sync"]).status == 0)
        let team = vdir.appendingPathComponent("Team")
        for file in Self.ics(in: team) { try FileManager.default.removeItem(at: team.appendingPathComponent(file)) }
        let r = try await pair.calgw(["sync", "--collection", "Team"])
        #expect(r.status == 4, "\(r.stdoutText)\(r.stderrText)")
        #expect(!r.stderrText.contains("no collection"), "\(r.stderrText)")
        #expect(try await graph.listed("subject", at: "/me/calendars/\(ids["Team"]!)/events").count == 4)
    }

    /// The mailbox's calendars sync under one bar on a terminal, as a CalDAV account's do.
    @Test func aMailboxShowsOneBarForItsCalendars() async throws {
        let pair = try await MailboxPair()
        defer { pair.remove() }
        let graph = pair.graph
        let ids = try await Self.mailbox(graph, calendars: ["Team", "Trips"])
        for i in 2...10 { try await Self.event("Trips \(i)", in: ids["Trips"]!, graph) }
        let run = try await ProgressBarTests.onTerminal(
            ["sync", "--config", pair.config.path], environment: ["TERM": "xterm"])
        #expect(run.status == 0, "\(run.stdoutText)")
        #expect(run.stdoutText.contains("sync 3 calendars ["), "\(run.stdoutText)")
        #expect(run.stdoutText.contains(" 11/11"), "every calendar's events, done: \(run.stdoutText)")
    }

    /// An event Outlook moves to another calendar keeps its id and is removed from the old
    /// calendar's delta, while `GET /me/events/{id}` still finds it: its file moves to the
    /// other folder, and the event stays where it went (the old copy, once deleted, would
    /// have deleted it there).
    @Test func anEventMovedInOutlookMovesToTheOtherFolder() async throws {
        let pair = try await MailboxPair()
        defer { pair.remove() }
        let graph = pair.graph, vdir = pair.vdir
        let ids = try await Self.mailbox(graph, calendars: ["Team", "Trips"])
        #expect(try await pair.calgw(["sync"]).status == 0)
        let teamEvents = try await graph.graph("GET", "/me/calendars/\(ids["Team"]!)/events")
        let moving = try #require(TestGraphServer.values(teamEvents).first?["id"] as? String)
        let moved = try await graph.control("POST", "move", json: ["id": moving, "calendarId": ids["Trips"]!])
        #expect(moved.status == 200, "\(moved)")

        let r = try await pair.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(r.stdoutText)\(r.stderrText)")
        #expect(Self.ics(in: vdir.appendingPathComponent("Team")).isEmpty, "the old folder kept a stale copy")
        #expect(Self.ics(in: vdir.appendingPathComponent("Trips")).count == 2)
        #expect(
            try await graph.listed("subject", at: "/me/calendars/\(ids["Trips"]!)/events").sorted() == [
                "Team event", "Trips event",
            ])
        let again = try await pair.calgw(["sync", "--json"])
        #expect(again.status == 0 && JSONCounts.writes(in: again.stdoutText) == 0, "\(again.stdoutText)")
        #expect(try await graph.listed("subject", at: "/me/calendars/\(ids["Trips"]!)/events").count == 2)
    }

    /// Graph answers a calendar's creation with an id other than the one it lists the calendar
    /// by later (microsoft-graph-docs #5580, #4007): the folder keeps its calendar, no second
    /// folder is made, and nothing is reported gone.
    @Test func aCalendarWhoseIDChangesAfterItIsMadeKeepsItsFolder() async throws {
        let pair = try await MailboxPair()
        defer { pair.remove() }
        let graph = pair.graph, vdir = pair.vdir
        let personal = vdir.appendingPathComponent("personal")
        try FileManager.default.createDirectory(at: personal, withIntermediateDirectories: true)
        try TestEvent.data(uid: "p-1", summary: "Dentist", end: "20270110T110000Z")
            .write(to: personal.appendingPathComponent("p-1.ics"))
        let fault = try await graph.control(
            "POST", "faults", json: ["kind": "calendarIdChanges", "method": "POST", "path": "/me/calendars"])
        #expect(fault.status == 201, "\(fault)")
        let first = try await pair.calgw(["sync"])
        #expect(first.status == 0, "\(first.stdoutText)\(first.stderrText)")
        for _ in 0..<2 {
            let r = try await pair.calgw(["sync", "--json"])
            #expect(r.status == 0 && JSONCounts.writes(in: r.stdoutText) == 0, "\(r.stdoutText)\(r.stderrText)")
            #expect(!(r.stdoutText + r.stderrText).contains("gone"), "\(r.stdoutText)\(r.stderrText)")
        }
        #expect(Self.subfolders(vdir) == ["Calendar", "personal"], "\(Self.subfolders(vdir))")
        #expect(try await graph.listed("name", at: "/me/calendars").sorted() == ["Calendar", "personal"])
    }
}
