import Foundation
import Testing
import CalgwTestSupport

/// A pair whose remote is an Outlook calendar through Microsoft Graph (`api = "graph"`, the
/// fake of Graph's calendar endpoints standing in for graph.microsoft.com), run by the command
/// as a person runs it: the mailbox's calendars discovered, the default one (`…/me/calendar`)
/// synced, then an event added with `event add`.
@Suite(.timeLimit(.minutes(10))) struct GraphPairTests {
    /// A config file in `folder` with the pair `pair` of `local` and the fake's `remote` path
    /// (`/me/calendar`, `/me/`), signed in with its token, and `extra` lines.
    static func config(
        pair: String, local: URL, remote: String, graph: TestGraphServer, in folder: TemporaryFolder,
        extra: [String] = []
    ) throws -> URL {
        let config = folder.file("config.toml")
        let lines = [
            "[pair.\(pair)]", "local = \"\(local.path)\"", "remote = \"\(graph.url.absoluteString)\(remote)\"",
            "api = \"graph\"", "token_command = [\"echo\", \"\(graph.token)\"]",
            "journal = \"\(folder.file("\(pair).sqlite").path)\"",
        ]
        try (lines + extra).joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// A pair `work` of the vdir `vdir/` and the fake's default calendar (`/me/calendar`).
    struct CalendarPair {
        let graph: TestGraphServer
        let folder: TemporaryFolder
        let vdir: URL
        let config: URL
        /// More environment for every `calgw` run (`TZ`).
        let environment: [String: String]

        init(environment: [String: String] = [:]) async throws {
            graph = try await TestGraphServer()
            folder = try TemporaryFolder()
            vdir = folder.file("vdir")
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
            config = try GraphPairTests.config(
                pair: "work", local: vdir, remote: "/me/calendar", graph: graph, in: folder)
            self.environment = environment
        }

        /// `calgw ARGUMENTS --config CONFIG`.
        func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(arguments + ["--config", config.path], environment: environment)
        }

        func remove() {
            graph.stop()
            folder.remove()
        }
    }

    @Test func aGraphPairSyncsAndTakesTheEventCommands() async throws {
        let pair = try await CalendarPair()
        defer { pair.remove() }
        let (graph, vdir, config) = (pair.graph, pair.vdir, pair.config)
        let made = try await graph.graph(
            "POST", "/me/calendar/events",
            json: [
                "subject": "Planning",
                "start": ["dateTime": "2027-01-12T09:00:00", "timeZone": "Pacific Standard Time"],
                "end": ["dateTime": "2027-01-12T10:00:00", "timeZone": "Pacific Standard Time"],
            ])
        #expect(made.status == 201)

        let discovered = try await CalgwBinary.run([
            "discover", graph.url.absoluteString + "/me/", "--api", "graph", "--token-command", "echo \(graph.token)",
            "--json",
        ])
        #expect(discovered.status == 0, "\(discovered.stderrText)")
        let rows = (try? JSONSerialization.jsonObject(with: discovered.stdout) as? [[String: Any]]) ?? []
        #expect(
            rows.map { $0["url"] as? String } == [try await graph.defaultCalendar().absoluteString]
                && rows.first?["displayName"] as? String == "Calendar" && rows.first?["writable"] as? Bool == true,
            "\(discovered.stdoutText)")

        let synced = try await CalgwBinary.run(["sync", "--json", "--config", config.path])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }
        #expect(files.count == 1)
        let text = try files.first.map { try String(contentsOf: vdir.appendingPathComponent($0), encoding: .utf8) }
        #expect(
            text?.contains("SUMMARY:Planning") == true && text?.contains("America/Los_Angeles") == true, "\(text ?? "")"
        )
        let lint = try await CalgwBinary.run(["lint", vdir.appendingPathComponent(files[0]).path])
        #expect(lint.status == 0, "\(lint.stdoutText)\(lint.stderrText)")

        let added = try await CalgwBinary.run(
            [
                "event", "add", "--summary", "Review", "--start", "2027-01-14T15:00", "--duration", "30m",
                "--tz", "Europe/Berlin", "--config", config.path,
            ])
        #expect(added.status == 0, "\(added.stderrText)")
        let listed = try await graph.graph("GET", "/me/calendar/events")
        let subjects = TestGraphServer.values(listed).compactMap {
            $0["subject"] as? String
        }
        #expect(Set(subjects) == ["Planning", "Review"], "\(listed)")

        let quiet = try await CalgwBinary.run(["sync", "--json", "--config", config.path])
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")
    }

    /// Meetings on a Graph pair: `event add --attendee`, `edit` and `delete` of one's own
    /// meeting and `event reply` to another's each make Graph send its one mail, and nothing
    /// else mails anyone.
    @Test func eachMeetingActionMailsOnce() async throws {
        let pair = try await CalendarPair()
        defer { pair.remove() }
        let (graph, calgw) = (pair.graph, pair.calgw)
        func mails() async throws -> [String] {
            try await graph.ledger().map { "\($0["kind"] ?? "") \(($0["to"] as? [String]) ?? [])" }
        }

        let added = try await calgw([
            "event", "add", "--summary", "Kickoff", "--start", "2027-05-03T10:00", "--duration", "1h",
            "--attendee", "bob@example.org",
        ])
        let uid = added.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(added.status == 0 && !uid.isEmpty, "\(added.stderrText)")
        #expect(try await mails() == ["invitation [\"bob@example.org\"]"])
        let moved = try await calgw(["event", "edit", uid, "--start", "2027-05-03T11:00"])
        #expect(moved.status == 0, "\(moved.stderrText)")
        let afterMove = try await mails()
        #expect(afterMove.count == 2 && (afterMove.last ?? "").hasPrefix("update"), "\(afterMove)")

        try await graph.control(
            "POST", "invitations",
            json: [
                "organizer": ["name": "Carol", "address": "carol@example.org"],
                "event": [
                    "subject": "Offsite", "start": ["dateTime": "2027-06-01T09:00:00", "timeZone": "UTC"],
                    "end": ["dateTime": "2027-06-01T17:00:00", "timeZone": "UTC"],
                    "attendees": [["emailAddress": ["address": "alice@example.org"], "type": "required"]],
                ],
            ])
        #expect(try await calgw(["sync"]).status == 0)
        let listed = try await calgw(["invitations", "--json"])
        let invitation =
            ((try? JSONSerialization.jsonObject(with: listed.stdout)) as? [[String: Any]])?.first?["uid"] as? String
        #expect(invitation != nil, "\(listed.stdoutText)\(listed.stderrText)")
        let answered = try await calgw(["event", "reply", invitation ?? "", "--accept", "--comment", "see you"])
        #expect(answered.status == 0 && !answered.stderrText.contains("warning"), "\(answered.stderrText)")
        let response = try await graph.ledger().last
        #expect(
            response?["kind"] as? String == "response" && response?["response"] as? String == "accepted"
                && response?["comment"] as? String == "see you"
                && response?["to"] as? [String] == ["carol@example.org"],
            "\(String(describing: response))")

        let deleted = try await calgw(["event", "delete", uid])
        #expect(deleted.status == 0, "\(deleted.stderrText)")
        let afterDelete = try await mails()
        #expect((afterDelete.last ?? "").hasPrefix("cancellation"), "\(afterDelete)")
        let quiet = try await calgw(["sync", "--json"])
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")
        let all = try await mails()
        #expect(all.count == 4, "\(all)")
    }

    /// `event reply --occurrence` answers that one occurrence of a series through Graph's own
    /// answer to it: the organizer gets one reply, for that date; the series' answer and the
    /// other occurrences are not touched, and the next sync has nothing to do.
    @Test func anOccurrenceIsAnsweredOnItsOwn() async throws {
        let pair = try await CalendarPair(environment: ["TZ": "UTC"])
        defer { pair.remove() }
        let (graph, calgw) = (pair.graph, pair.calgw)
        try await graph.control(
            "POST", "invitations",
            json: [
                "organizer": ["name": "Carol", "address": "carol@example.org"],
                "event": [
                    "subject": "Weekly review", "start": ["dateTime": "2027-06-01T09:00:00", "timeZone": "UTC"],
                    "end": ["dateTime": "2027-06-01T10:00:00", "timeZone": "UTC"],
                    "recurrence": [
                        "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["tuesday"]],
                        "range": ["type": "numbered", "startDate": "2027-06-01", "numberOfOccurrences": 4],
                    ],
                    "attendees": [["emailAddress": ["address": "alice@example.org"], "type": "required"]],
                ],
            ])
        #expect(try await calgw(["sync"]).status == 0)
        let listed = try await calgw(["invitations", "--json"])
        let uid =
            ((try? JSONSerialization.jsonObject(with: listed.stdout)) as? [[String: Any]])?.first?["uid"] as? String
        #expect(uid != nil, "\(listed.stdoutText)\(listed.stderrText)")
        let answered = try await calgw([
            "event", "reply", uid ?? "", "--tentative", "--occurrence", "2027-06-08T09:00", "--comment", "maybe",
        ])
        #expect(answered.status == 0, "\(answered.stderrText)")
        let mails = try await graph.ledger()
        #expect(mails.count == 1, "\(mails)")
        let reply = mails.last
        #expect(
            reply?["kind"] as? String == "response" && reply?["response"] as? String == "tentativelyAccepted"
                && (reply?["occurrence"] as? String ?? "").hasPrefix("2027-06-08")
                && reply?["comment"] as? String == "maybe",
            "\(String(describing: reply))")
        let quiet = try await calgw(["sync", "--json"])
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")
        #expect(try await graph.ledger().count == 1)
    }

    /// A folder removed from the vdir and a calendar deleted in Outlook are reported and left
    /// alone; `--allow-collection-delete` deletes the calendar in Outlook and removes the
    /// folder. The mailbox's default calendar, and one holding a meeting the account organizes
    /// (Graph would mail its attendees), are not deleted, and the run says why.
    @Test func calendarsGoneFromOneSideGoFromTheOtherOnlyWhenAllowed() async throws {
        let graph = try await TestGraphServer()
        defer { graph.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("calendars")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        var ids: [String: String] = [:]
        for name in ["Team", "Trips", "Board"] {
            let made = try await graph.graph("POST", "/me/calendars", json: ["name": name])
            ids[name] = (made.body as? [String: Any])?["id"] as? String ?? ""
            try await graph.graph(
                "POST", "/me/calendars/\(ids[name]!)/events",
                json: [
                    "subject": "\(name) event", "start": ["dateTime": "2027-01-08T15:00:00", "timeZone": "UTC"],
                    "end": ["dateTime": "2027-01-08T16:00:00", "timeZone": "UTC"],
                    "attendees": name == "Board"
                        ? [["emailAddress": ["address": "bob@example.org"], "type": "required"]] : [],
                ])
        }
        try await graph.control("DELETE", "ledger")
        let config = try Self.config(
            pair: "mail", local: vdir, remote: "/me/", graph: graph, in: folder, extra: ["collections = \"all\""])
        func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(arguments + ["--config", config.path])
        }
        #expect(try await calgw(["sync"]).status == 0)
        let remove = { (name: String) in try FileManager.default.removeItem(at: vdir.appendingPathComponent(name)) }
        try remove("Team")
        try remove("Calendar")
        try remove("Board")
        try await graph.graph("DELETE", "/me/calendars/\(ids["Trips"]!)")

        let held = try await calgw(["sync"])
        #expect(held.status == 0, "\(held.stderrText)")
        #expect(held.stderrText.contains("--allow-collection-delete"), "\(held.stdoutText)\(held.stderrText)")
        #expect(try await graph.listed("subject", at: "/me/calendars/\(ids["Team"]!)/events") == ["Team event"])
        #expect(try await graph.listed("name", at: "/me/calendars").sorted() == ["Board", "Calendar", "Team"])
        #expect(FileManager.default.fileExists(atPath: vdir.appendingPathComponent("Trips").path))
        let again = try await calgw(["sync"])
        #expect(again.status == 0 && again.stderrText.contains("is left as it is"), "\(again.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: vdir.appendingPathComponent("Team").path))

        let allowed = try await calgw(["sync", "--allow-collection-delete"])
        let said = allowed.stdoutText + allowed.stderrText
        #expect(allowed.status != 0, "the default calendar and Board are refused: \(said)")
        #expect(said.contains("Team (1 item when last synced) was deleted in Outlook"), "\(said)")
        #expect(said.contains("cannot be deleted") && said.contains("would mail their attendees"), "\(said)")
        #expect(try await graph.listed("name", at: "/me/calendars").sorted() == ["Board", "Calendar"])
        #expect(!FileManager.default.fileExists(atPath: vdir.appendingPathComponent("Trips").path))
        let mails = try await graph.ledger()
        #expect(mails.isEmpty, "\(mails)")
    }

    /// `collections = "all"` over a mailbox (`…/v1.0/me/`): a folder per calendar, named after
    /// it, a calendar made for a folder new in the vdir, and a second run with nothing to do.
    @Test func aWholeMailboxSyncsAsOneFolderPerCalendar() async throws {
        let graph = try await TestGraphServer()
        defer { graph.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("calendars")
        try FileManager.default.createDirectory(
            at: vdir.appendingPathComponent("personal"), withIntermediateDirectories: true)
        try Data(
            TestEvent.ics(uid: "dentist", summary: "Dentist", start: "20270110T100000Z", end: "20270110T110000Z").utf8
        ).write(to: vdir.appendingPathComponent("personal/dentist.ics"))
        let team = try await graph.graph("POST", "/me/calendars", json: ["name": "Team"])
        let teamID = (team.body as? [String: Any])?["id"] as? String ?? ""
        #expect(team.status == 201, "\(team)")
        try await graph.graph(
            "POST", "/me/calendars/\(teamID)/events",
            json: [
                "subject": "Retro", "start": ["dateTime": "2027-01-08T15:00:00", "timeZone": "UTC"],
                "end": ["dateTime": "2027-01-08T16:00:00", "timeZone": "UTC"],
            ])
        let config = try Self.config(
            pair: "mail", local: vdir, remote: "/me/", graph: graph, in: folder, extra: ["collections = \"all\""])

        let synced = try await CalgwBinary.run(["sync", "--config", config.path])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: vdir.path).sorted()
        #expect(folders == ["Calendar", "Team", "personal"], "\(folders)")
        let teamFiles = try FileManager.default.contentsOfDirectory(atPath: vdir.appendingPathComponent("Team").path)
        #expect(teamFiles.filter { $0.hasSuffix(".ics") }.count == 1, "\(teamFiles)")
        let calendars = try await graph.graph("GET", "/me/calendars")
        let names = TestGraphServer.values(calendars).compactMap {
            $0["name"] as? String
        }
        #expect(names.sorted() == ["Calendar", "Team", "personal"], "\(names)")
        let personal =
            TestGraphServer.values(calendars).first {
                $0["name"] as? String == "personal"
            }?["id"] as? String ?? ""
        let events = try await graph.graph("GET", "/me/calendars/\(personal)/events")
        let subjects = TestGraphServer.values(events).compactMap {
            $0["subject"] as? String
        }
        #expect(subjects == ["Dentist"], "\(events)")

        let quiet = try await CalgwBinary.run(["sync", "--json", "--config", config.path])
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")
        let status = try await CalgwBinary.run(["status", "--config", config.path])
        #expect(
            status.status == 0 && status.stdoutText.contains("items synced"), "\(status.stdoutText)\(status.stderrText)"
        )
    }

    /// An organizer who turned responses off (`responseRequested: false`): Graph refuses an
    /// answer sent to them, and a comment without one. `event reply` answers in Outlook alone,
    /// mails nobody, and says so.
    @Test func anAnswerToAnOrganizerWhoAskedForNoneIsKeptInOutlook() async throws {
        let pair = try await CalendarPair()
        defer { pair.remove() }
        let (graph, calgw) = (pair.graph, pair.calgw)
        let delivered = try await graph.control(
            "POST", "invitations",
            json: [
                "organizer": ["name": "Carol", "address": "carol@example.org"],
                "event": [
                    "subject": "All hands", "responseRequested": false,
                    "start": ["dateTime": "2027-06-01T09:00:00", "timeZone": "UTC"],
                    "end": ["dateTime": "2027-06-01T10:00:00", "timeZone": "UTC"],
                    "attendees": [["emailAddress": ["address": "alice@example.org"], "type": "required"]],
                ],
            ])
        let id = try #require((delivered.body as? [String: Any])?["id"] as? String)
        #expect(try await calgw(["sync"]).status == 0)
        try await graph.control("DELETE", "ledger")
        let listed = try await calgw(["invitations", "--json"])
        let uid = try #require(
            ((try? JSONSerialization.jsonObject(with: listed.stdout)) as? [[String: Any]])?.first?["uid"] as? String)
        let answered = try await calgw(["event", "reply", uid, "--accept", "--comment", "see you"])
        let said = answered.stdoutText + answered.stderrText
        #expect(answered.status == 0, "\(said)")
        #expect(said.contains("asked for no answers"), "\(said)")
        let mails = try await graph.ledger()
        #expect(mails.isEmpty, "a mail went out: \(mails)")
        let event = try await graph.graph("GET", "/me/events/\(id)").body as? [String: Any]
        #expect((event?["responseStatus"] as? [String: Any])?["response"] as? String == "accepted", "\(event ?? [:])")
    }
}
