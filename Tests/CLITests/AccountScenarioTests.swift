import Foundation
import Testing
import CalgwTestSupport

/// Account scenarios on a fresh server of each kind: calendars with events and tasks synced
/// into an empty folder, a calendar added on the server between syncs, and two calendars whose
/// names collide in the safe alphabet.
@Suite(.timeLimit(.minutes(10))) struct AccountScenarioTests {
    @Test(arguments: TestServers.selected)
    func threeCalendarsWithTasksThenANewOne(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let home = "home-\(account.id)", work = "work-\(account.id)", tasks = "tasks-\(account.id)"
        let homeURL = try await account.makeCalendar(home, displayName: "Home")
        let workURL = try await account.makeCalendar(work, displayName: "Work")
        let tasksURL = try await account.makeCalendar(tasks, displayName: "Tasks", components: ["VTODO"])
        try await account.put(
            TestEvent.ics(uid: "h-\(account.id)", summary: "Home", start: "20260301T100000Z", duration: "PT1H"),
            name: "h", in: homeURL)
        try await account.put(
            TestEvent.ics(uid: "w-\(account.id)", summary: "Work", start: "20260301T100000Z", duration: "PT1H"),
            name: "w", in: workURL)
        try await account.put(AccountFixture.todo("t-\(account.id)", "Task"), name: "t", in: tasksURL)

        var r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["created", "local"]) ?? 0 >= 3, "\(name): \(r.stdoutText)")
        // Files are named after the UID.
        #expect(account.files(home) == ["h-\(account.id).ics"], "\(name): \(account.files(home))")
        #expect(account.files(work) == ["w-\(account.id).ics"], "\(name): \(account.files(work))")
        #expect(
            account.files(tasks) == ["t-\(account.id).ics"], "\(name): the task calendar holds \(account.files(tasks))")
        let todo =
            (try? String(
                contentsOf: account.local.appendingPathComponent("\(tasks)/t-\(account.id).ics"), encoding: .utf8))
            ?? ""
        #expect(todo.contains("BEGIN:VTODO"), "\(name): \(todo)")
        let displayName = try? String(
            contentsOf: account.local.appendingPathComponent("\(work)/displayname"), encoding: .utf8)
        #expect(
            displayName?.trimmingCharacters(in: .whitespacesAndNewlines) == "Work",
            "\(name): displayname \(displayName ?? "missing")")
        #expect(
            AccountFixture.number(r.stdoutText, ["collections", tasks, "created", "local"]) == 1,
            "\(name): \(r.stdoutText)")

        // `list` covers every calendar, with the calendar's folder as a column and a key.
        r = try await account.calgw(["list", "--from", "2026-03-01", "--to", "2026-04-01", "--json"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let rows = (try? JSONSerialization.jsonObject(with: r.stdout)) as? [[String: Any]] ?? []
        let byUID = Dictionary(
            rows.compactMap { row in (row["uid"] as? String).map { ($0, row["calendar"] as? String) } },
            uniquingKeysWith: { a, _ in a })
        #expect(
            byUID["h-\(account.id)"] == .some(home) && byUID["w-\(account.id)"] == .some(work),
            "\(name): \(r.stdoutText)")
        r = try await account.calgw(["list", "--from", "2026-03-01", "--to", "2026-04-01"])
        #expect(
            r.stdoutText.split(separator: "\n").contains { $0.contains(work) && $0.contains("Work") },
            "\(name): \(r.stdoutText)")

        // A calendar added on the server between syncs: a new folder next time.
        let later = "later-\(account.id)"
        let laterURL = try await account.makeCalendar(later, displayName: "Later")
        try await account.put(
            TestEvent.ics(uid: "l-\(account.id)", summary: "Later", start: "20260301T100000Z", duration: "PT1H"),
            name: "l", in: laterURL)
        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(account.files(later) == ["l-\(account.id).ics"], "\(name): \(account.subfolders())")
        #expect(AccountFixture.number(r.stdoutText, ["created", "local"]) == 1, "\(name): \(r.stdoutText)")
        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(name): \(r.stdoutText)")
    }

    @Test(arguments: TestServers.selected)
    func collidingNamesGetTwoFolders(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        // `Work Cal` and `Work_Cal` are both `Work_Cal` in the safe alphabet.
        let spaced = "Work Cal-\(account.id)", underscored = "Work_Cal-\(account.id)"
        let first = try await account.makeCalendar(spaced), second = try await account.makeCalendar(underscored)
        try await account.put(
            TestEvent.ics(uid: "s-\(account.id)", summary: "Spaced", start: "20260301T100000Z", duration: "PT1H"),
            name: "s", in: first)
        try await account.put(
            TestEvent.ics(uid: "u-\(account.id)", summary: "Underscored", start: "20260301T100000Z", duration: "PT1H"),
            name: "u", in: second)
        var r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        let mapping = account.mapping()
        let ours = mapping.filter { $0.value.contains(account.id) }
        #expect(ours.count == 2 && Set(ours.keys).count == 2, "\(name): \(mapping)")
        let files = ours.keys.sorted().map { account.files($0) }
        #expect(
            Set(files.flatMap { $0 }) == ["s-\(account.id).ics", "u-\(account.id).ics"]
                && files.allSatisfy { $0.count == 1 }, "\(name): \(ours) \(files)")

        // Both sync: an event added in each folder reaches its own calendar.
        for folder in ours.keys {
            try Data(
                TestEvent.ics(uid: "n-\(folder)", summary: "New", start: "20260301T100000Z", duration: "PT1H").utf8
            )
            .write(to: account.local.appendingPathComponent("\(folder)/n.ics"))
        }
        r = try await account.calgw(["sync", "--json"])
        #expect(
            r.status == 0 && AccountFixture.number(r.stdoutText, ["created", "remote"]) == 2,
            "\(name): \(r.stdoutText) \(r.stderrText)")
        for calendar in [first, second] {
            let items = try await account.server.itemHrefs(in: calendar)
            #expect(items.count == 2, "\(name): \(calendar.path): \(items)")
        }
    }
}
