import CalgwTestSupport
import Foundation
import Testing

/// Tasks as todoman users keep them: todoman (from the project's pinned Python environment)
/// writes the vdir of one pair, calgw syncs it with a real server, and a second pair on the same
/// calendar plays the phone.
@Suite(.timeLimit(.minutes(10))) struct TodomanTaskTests {
    /// The laptop's pair (whose vdir todoman writes), the phone's pair, both on one fresh
    /// calendar of `name`'s server.
    struct Setup {
        let server: TestServer
        let folder: TemporaryFolder
        let laptop: ServerPair
        let phone: ServerPair
        let todoConfig: URL

        /// `components`: what the calendar takes (all kinds when empty).
        init(_ name: String, prefix: String, components: [String] = []) async throws {
            server = try TestServers.shared(name)
            let collection = server.newCollectionURL(prefix: prefix)
            try await server.makeCalendar(collection, components: components)
            folder = try TemporaryFolder()
            laptop = try ServerPair(folder, "laptop", server: server, collection: collection)
            phone = try ServerPair(folder, "phone", server: server, collection: collection)
            todoConfig = folder.file("todoman.py")
            try Data(
                """
                path = "\(laptop.vdir.path)"
                date_format = "%Y-%m-%d"
                time_format = "%H:%M"
                cache_path = "\(folder.file("todoman.sqlite3").path)"
                """.utf8
            ).write(to: todoConfig)
        }

        func remove() { folder.remove() }

        /// `todo ARGUMENTS` with the laptop's config; `answer` is typed at its prompt. A new
        /// task goes to the laptop's list, which todoman names by the folder's `displayname`
        /// once a sync has written the calendar's name there, as a person's `-l` would.
        func todo(_ arguments: [String], answer: String? = nil) async throws -> ProcessRunner.Result {
            let shown = try? String(contentsOf: laptop.vdir.appendingPathComponent("displayname"), encoding: .utf8)
            let list =
                arguments.first == "new"
                ? ["-l", shown?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "laptop"] : []
            return try await ProcessRunner.run(
                "todo", ["-c", todoConfig.path] + arguments.prefix(1) + list + arguments.dropFirst(),
                stdin: answer.map { Data("\($0)\n".utf8) }, environment: ["TZ": "UTC"])
        }

        /// todoman's id of the task `summary`.
        func id(of summary: String) async throws -> String {
            let listed = try await todo(["--porcelain", "list", "--status", "ANY"])
            let tasks = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
            let task = try #require(tasks.first { $0["summary"] as? String == summary }, "\(listed.stdoutText)")
            return "\(try #require(task["id"] as? Int))"
        }

        func sync(_ pair: ServerPair) async throws -> ProcessRunner.Result {
            try await pair.run("sync", password: server.password)
        }
    }

    /// STATUS, COMPLETED and PERCENT-COMPLETE of the task `uid` in `pair`'s vdir.
    static func completion(_ pair: ServerPair, _ summary: String) throws -> (String?, Bool, String?) {
        for name in try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path) where name.hasSuffix(".ics") {
            let lines = try ServerPair.lines(pair.vdir.appendingPathComponent(name))
            guard lines.contains("SUMMARY:\(summary)") else { continue }
            func value(_ key: String) -> String? {
                lines.first { $0.hasPrefix("\(key):") }.map { String($0.dropFirst(key.count + 1)) }
            }
            return (value("STATUS"), value("COMPLETED") != nil, value("PERCENT-COMPLETE"))
        }
        throw FixtureFailure("no task \(summary) in \(pair.vdir.path)")
    }

    /// A completed task has a COMPLETED date and is at 100 % if it says; an open one has no
    /// COMPLETED date.
    static func coherent(_ completion: (String?, Bool, String?)) -> Bool {
        let (status, completed, percent) = completion
        return status == "COMPLETED" ? completed && (percent == nil || percent == "100") : !completed
    }

    /// `todo flush` deletes the done tasks: a routine clean-up, synced as it is, not refused
    /// as a mass deletion.
    @Test(arguments: ["radicale", "sabre"]) func aFlushOfDoneTasksSyncsEverywhere(name: String) async throws {
        let s = try await Setup(name, prefix: "flush")
        defer { s.remove() }
        for summary in ["Pay rent", "Call mum", "Book flights", "Water plants"] {
            #expect(try await s.todo(["new", summary]).status == 0)
        }
        #expect(try await s.sync(s.laptop).status == 0)
        #expect(try await s.sync(s.phone).status == 0)
        #expect(try s.phone.summaries().count == 4)
        for summary in ["Pay rent", "Call mum", "Book flights"] {
            #expect(try await s.todo(["done", try await s.id(of: summary)]).status == 0)
        }
        #expect(try await s.sync(s.laptop).status == 0)
        let flush = try await s.todo(["flush"], answer: "y")
        #expect(flush.status == 0, "\(flush.stderrText)")
        let synced = try await s.sync(s.laptop)
        #expect(synced.status == 0, "\(name): \(synced.stdoutText) \(synced.stderrText)")
        #expect(try await s.sync(s.phone).status == 0)
        #expect(Array(try s.phone.summaries().values) == ["Water plants"], "\(name)")
    }

    /// Done on the laptop while the phone set it in progress at 60 %, the phone's change the
    /// newer: the merge takes the completion whole from the phone (property by property it
    /// kept the laptop's COMPLETED date beside the phone's IN-PROCESS at 60 %), never a task
    /// completed at 60 % nor an open one with a COMPLETED date, and both devices end alike.
    @Test(arguments: ["radicale", "sabre"]) func aTaskDoneHereAndInProgressThereMergesWhole(name: String) async throws {
        let s = try await Setup(name, prefix: "merge")
        defer { s.remove() }
        #expect(try await s.todo(["new", "Write report"]).status == 0)
        #expect(try await s.sync(s.laptop).status == 0)
        #expect(try await s.sync(s.phone).status == 0)
        // The phone's app: in progress at 60 %, stamped after the laptop's change below (its
        // clock ahead, or its change the later one).
        let phoneFile = try s.phone.file(uid: try #require(try s.phone.summaries().keys.first))
        var text = try String(contentsOf: phoneFile, encoding: .utf8)
        text = text.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:IN-PROCESS\r\nPERCENT-COMPLETE:60")
        text = text.replacingOccurrences(
            of: #"LAST-MODIFIED:\d{8}T\d{6}Z"#, with: "LAST-MODIFIED:20991231T000000Z", options: .regularExpression)
        try Data(text.utf8).write(to: phoneFile)
        #expect(try await s.sync(s.phone).status == 0)
        #expect(try await s.todo(["done", try await s.id(of: "Write report")]).status == 0)
        let merged = try await s.sync(s.laptop)
        #expect(merged.status == 0, "\(name): \(merged.stderrText)")
        #expect(try await s.sync(s.phone).status == 0)
        let laptop = try Self.completion(s.laptop, "Write report"), phone = try Self.completion(s.phone, "Write report")
        #expect(Self.coherent(laptop) && Self.coherent(phone), "\(name): laptop \(laptop), phone \(phone)")
        #expect(laptop == phone, "\(name): laptop \(laptop), phone \(phone)")
        #expect(laptop.0 == "IN-PROCESS" && laptop.2 == "60", "\(name): the newer side's completion: \(laptop)")
        let listed = try await s.todo(["--porcelain", "list", "--status", "ANY"])
        #expect(listed.stdoutText.contains("\"completed\": false"), "\(listed.stdoutText)")
    }

    /// todoman's `--start DATE --due "DATE TIME"` (a date start with a timed due, which RFC
    /// 5545 forbids and sabre/dav refuses with 415) reaches the server with the start as 00:00 in
    /// the due's zone; the laptop's file stays as todoman wrote it, and the phone gets the task.
    @Test(arguments: ["radicale", "sabre"]) func todomansDateStartWithATimedDueReachesTheServer(name: String)
        async throws
    {
        let s = try await Setup(name, prefix: "start")
        defer { s.remove() }
        let made = try await s.todo(["new", "--start", "2026-12-01", "--due", "2026-12-05 09:00", "Renew passport"])
        #expect(made.status == 0, "\(made.stderrText)")
        let synced = try await s.sync(s.laptop)
        #expect(synced.status == 0, "\(name): \(synced.stdoutText) \(synced.stderrText)")
        #expect(!synced.stderrText.contains("stays in the vdir"), "\(name): \(synced.stderrText)")
        #expect(try await s.sync(s.phone).status == 0)
        let uid = try #require(try s.phone.summaries().first { $0.value == "Renew passport" }?.key, "\(name)")
        let phoneLines = try ServerPair.lines(try s.phone.file(uid: uid))
        #expect(phoneLines.contains("DTSTART:20261201T000000Z"), "\(name): \(phoneLines)")
        let laptopLines = try ServerPair.lines(try s.laptop.file(uid: uid))
        #expect(laptopLines.contains("DTSTART;VALUE=DATE:20261201"), "the file stays as todoman wrote it")
        let again = try await s.sync(s.laptop)
        #expect(again.status == 0 && !again.stdoutText.contains("1 updated"), "\(name): \(again.stdoutText)")
        #expect(try ServerPair.lines(try s.laptop.file(uid: uid)).contains("DTSTART;VALUE=DATE:20261201"))
    }

    /// A task put in a calendar of events only is refused by the server: the run says so once,
    /// in the server's terms, exits 0, and `status` lists it (text and JSON `heldBack`) on
    /// every run until the task changes; nothing is sent again meanwhile.
    @Test(arguments: ["sabre"]) func aTaskTheCalendarRefusesStaysListedByStatus(name: String) async throws {
        let s = try await Setup(name, prefix: "events", components: ["VEVENT"])
        defer { s.remove() }
        #expect(try await s.todo(["new", "Renew passport"]).status == 0)
        let first = try await s.sync(s.laptop)
        #expect(first.status == 0, "\(name): \(first.stdoutText) \(first.stderrText)")
        #expect(first.stdoutText.contains("takes no tasks"), "\(name): \(first.stdoutText) | \(first.stderrText)")
        let second = try await s.sync(s.laptop)
        #expect(
            second.status == 0 && !(second.stdoutText + second.stderrText).contains("takes no tasks"),
            "\(name): \(second.stdoutText)")
        for _ in 0..<2 {
            let status = try await s.laptop.run("status", password: s.server.password)
            #expect(status.stdoutText.contains("held back"), "\(name): \(status.stdoutText)")
            #expect(status.stdoutText.contains("takes no tasks"), "\(name): \(status.stdoutText)")
            let json = try await s.laptop.run("status", ["--json"], password: s.server.password)
            let record = try JSONSerialization.jsonObject(with: json.stdout)
            let held =
                ((record as? [[String: Any]])?.first ?? record as? [String: Any])?["heldBack"] as? [[String: Any]]
            #expect(
                held?.count == 1 && (held?.first?["reason"] as? String)?.isEmpty == false, "\(name): \(json.stdoutText)"
            )
        }
        #expect(try await s.sync(s.phone).status == 0)
        #expect(try s.phone.summaries().isEmpty, "\(name): nothing reached the server")
    }
}

extension TodomanTaskTests {
    /// `event edit` on a task's UID says it is a task and how to change it, instead of "no
    /// event with UID"; the file is left alone.
    @Test func eventEditOnATaskNamesWhatItIs() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("tasks")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let task = Data(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:pass\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Renew passport\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
                .utf8)
        try task.write(to: vdir.appendingPathComponent("pass.ics"))
        let config = folder.file("c.toml")
        try Data(
            "[pair.t]\nlocal = \"\(vdir.path)\"\nremote = \"file://\(folder.file("other").path)\"\njournal = \"\(folder.file("t.sqlite").path)\"\n"
                .utf8
        ).write(to: config)
        let r = try await CalgwBinary.run([
            "event", "edit", "pass", "--summary", "x", "--offline", "--config", config.path,
        ])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("is a task (VTODO), not an event"), "\(r.stderrText)")
        #expect(r.stderrText.contains("calgw event open pass"), "\(r.stderrText)")
        #expect(try Data(contentsOf: vdir.appendingPathComponent("pass.ics")) == task)
    }
}

extension TodomanTaskTests {
    /// `item_types = ["VTODO"]`, as a vdirsyncer pair of task lists has it: the server's event
    /// stays on the server and the vdir's event (khal's) stays in the vdir; tasks go both ways.
    @Test(arguments: ["radicale", "sabre"]) func itemTypesSyncsTasksOnlyAndLeavesEventsWhereTheyAre(name: String)
        async throws
    {
        let server = try TestServers.shared(name)
        let collection = server.newCollectionURL(prefix: "types")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tasks = try ServerPair(
            folder, "tasks", server: server, collection: collection, extra: ["item_types = [\"VTODO\"]"])
        let all = try ServerPair(folder, "all", server: server, collection: collection)
        func task(_ uid: String, _ summary: String) -> Data {
            Data(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
                    .utf8)
        }
        // On the server: an event and a task, put there by another device.
        try TestEvent.data(uid: "party", summary: "Party").write(to: all.vdir.appendingPathComponent("party.ics"))
        try task("milk", "Buy milk").write(to: all.vdir.appendingPathComponent("milk.ics"))
        #expect(try await all.run("sync", password: server.password).status == 0)
        // In the tasks vdir: a task, and an event khal wrote there.
        try task("rent", "Pay rent").write(to: tasks.vdir.appendingPathComponent("rent.ics"))
        try TestEvent.data(uid: "dentist", summary: "Dentist").write(
            to: tasks.vdir.appendingPathComponent("dentist.ics"))
        let synced = try await tasks.run("sync", password: server.password)
        #expect(synced.status == 0, "\(name): \(synced.stdoutText) \(synced.stderrText)")
        #expect(try tasks.summaries() == ["milk": "Buy milk", "rent": "Pay rent", "dentist": "Dentist"], "\(name)")
        #expect(try await all.run("sync", password: server.password).status == 0)
        #expect(try all.summaries() == ["milk": "Buy milk", "rent": "Pay rent", "party": "Party"], "\(name)")
        let again = try await tasks.run("sync", password: server.password)
        #expect(again.status == 0, "\(name): \(again.stdoutText)")
        #expect(try tasks.summaries().count == 3, "\(name)")
    }
}
