import Foundation
import Testing
import CalgwTestSupport

/// `calgw status` names what is pending, like `git status`: each item with the side it
/// changes, the action, UID, summary, start and place; conflicts with both summaries and the
/// strategy; broken files as `path:line: problem`; UIDs held twice with both places.
@Suite struct StatusItemsTests {
    static func objects(_ json: [String: Any], _ key: String) -> [[String: Any]] {
        json[key] as? [[String: Any]] ?? []
    }

    @Test func listsEachPendingItemConflictAndBrokenFile() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "kept.ics", TestEvent.data(uid: "kept", summary: "Kept"))
        try pair.write(pair.local, "both.ics", TestEvent.data(uid: "both", summary: "Base"))
        try pair.write(pair.local, "gone.ics", TestEvent.data(uid: "gone", summary: "Gone soon"))
        #expect(try await pair.run("sync").status == 0)

        try pair.write(pair.local, "new.ics", TestEvent.data(uid: "new", summary: "Dentist"))
        try pair.write(pair.remote, "theirs.ics", TestEvent.data(uid: "theirs", summary: "From the server"))
        try FileManager.default.removeItem(at: pair.local.appendingPathComponent("gone.ics"))
        try pair.write(pair.local, "both.ics", TestEvent.data(uid: "both", summary: "Mine"))
        let remoteBoth = try #require(
            try FileManager.default.contentsOfDirectory(atPath: pair.remote.path).first { $0.hasPrefix("both") })
        try pair.write(pair.remote, remoteBoth, TestEvent.data(uid: "both", summary: "Theirs"))

        var r = try await pair.run("status", ["--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        var json = try pair.json(r)
        #expect(json["synced"] as? Int == 3)
        let items = Self.objects(json, "items")
        let byUID = Dictionary(items.map { ($0["uid"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byUID.keys.sorted() == ["gone", "new", "theirs"], "\(items)")
        #expect(byUID["new"]?["side"] as? String == "remote" && byUID["new"]?["action"] as? String == "create")
        #expect(
            byUID["new"]?["summary"] as? String == "Dentist"
                && byUID["new"]?["start"] as? String == "2026-03-10T10:00:00+00:00")
        #expect(
            byUID["new"]?["path"] as? String == pair.local.appendingPathComponent("new.ics").path,
            "\(byUID["new"] ?? [:])")
        #expect(byUID["theirs"]?["side"] as? String == "local" && byUID["theirs"]?["href"] as? String == "theirs.ics")
        #expect(
            byUID["gone"]?["action"] as? String == "delete" && byUID["gone"]?["summary"] as? String == "Gone soon",
            "a deletion names what it deletes, from the journal's copy: \(byUID["gone"] ?? [:])")
        let conflicts = Self.objects(json, "conflicts")
        #expect(conflicts.count == 1, "\(conflicts)")
        #expect(
            conflicts.first?["localSummary"] as? String == "Mine"
                && conflicts.first?["remoteSummary"] as? String == "Theirs")
        #expect(conflicts.first?["strategy"] as? String == "merge")

        // The same on a terminal, one line each.
        r = try await pair.run("status")
        #expect(r.stdoutText.contains("create  2026-03-10 10:00Z \"Dentist\""), "\(r.stdoutText)")
        #expect(r.stdoutText.contains("delete") && r.stdoutText.contains("\"Gone soon\""), "\(r.stdoutText)")
        #expect(r.stdoutText.contains("both: local \"Mine\", remote \"Theirs\"; merge resolves it"), "\(r.stdoutText)")

        // A broken file and a UID held twice: listed, and the exit status a sync would have (1).
        try Data(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:broken\r\nDTSTART:20260310T100000Z\r\nDTEND:20260309T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                .utf8
        )
        .write(to: pair.local.appendingPathComponent("broken.ics"))
        try pair.write(pair.local, "copy.ics", TestEvent.data(uid: "new", summary: "Dentist (copy)"))
        r = try await pair.run("status", ["--json"])
        #expect(r.status == 1, "\(r.status) \(r.stderrText)")
        json = try pair.json(r)
        let broken = Self.objects(json, "broken")
        #expect(
            broken.count == 1
                && broken.first?["path"] as? String == pair.local.appendingPathComponent("broken.ics").path
                && broken.first?["line"] as? Int == 6, "\(broken)")
        let duplicates = Self.objects(json, "duplicates")
        #expect(
            duplicates.first?["uid"] as? String == "new" && (duplicates.first?["locations"] as? [String])?.count == 2,
            "\(duplicates)")
        r = try await pair.run("status")
        #expect(r.status == 1)
        #expect(r.stdoutText.contains("broken.ics:6:"), "\(r.stdoutText)")
        #expect(r.stdoutText.contains("UIDs held twice"), "\(r.stdoutText)")
    }

    /// `sync --dry-run` and `status` tell what a run skips alike: one description serves both
    /// (a broken file on the other side of a vdir pair was skipped by one and not the other).
    @Test func aDryRunAndStatusTellTheSameSkips() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        try pair.write(pair.local, "ok.ics", TestEvent.data(uid: "ok", summary: "Fine"))
        #expect(try await pair.run("sync").status == 0)
        try pair.write(
            pair.remote, "broken.ics", Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:b\r\nEND:VCALENDAR\r\n".utf8))
        try pair.write(
            pair.local, "mine-broken.ics", Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:m\r\nEND:VCALENDAR\r\n".utf8))
        let dryRun = try pair.json(try await pair.run("sync", ["--dry-run", "--json"]))
        let status = try pair.json(try await pair.run("status", ["--json"]))
        let skippedByDryRun = dryRun["skipped"] as? [String] ?? [],
            skippedByStatus = status["skipped"] as? [String] ?? []
        #expect(
            skippedByDryRun == skippedByStatus
                && skippedByDryRun.contains { $0.contains("broken.ics on the remote side does not parse") },
            "dry run: \(skippedByDryRun); status: \(skippedByStatus)")
        #expect((dryRun["errors"] as? [String] ?? []).contains { $0.contains("mine-broken.ics") }, "\(dryRun)")
    }

    @Test func longListsAreCutOnTheTerminalOnly() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        for i in 0..<13 { try pair.write(pair.local, "e\(i).ics", TestEvent.data(uid: "e\(i)", summary: "Event \(i)")) }
        // On a terminal (a pseudo-terminal made by util-linux `script`): the first 10.
        let command = [CalgwBinary.url.path, "status", "--config", pair.config.path].map { "'" + $0 + "'" }.joined(
            separator: " ")
        let onTerminal = try await ProcessRunner.run("script", ["-qfec", command, "/dev/null"])
        let cut = onTerminal.stdoutText.split(whereSeparator: \.isNewline).filter { $0.contains("create ") }
        #expect(
            cut.count == 10 && onTerminal.stdoutText.contains("… and 3 more (--all-items lists every one)"),
            "\(onTerminal.stdoutText)")
        // Read by a script: every line.
        var r = try await pair.run("status")
        #expect(r.status == 0)
        #expect(
            r.stdoutText.split(separator: "\n").filter { $0.contains("create ") }.count == 13
                && !r.stdoutText.contains("more ("),
            "\(r.stdoutText)")
        r = try await pair.run("status", ["--all-items"])
        #expect(r.stdoutText.split(separator: "\n").filter { $0.contains("create ") }.count == 13, "\(r.stdoutText)")
        r = try await pair.run("status", ["--json"])
        #expect(Self.objects(try pair.json(r), "items").count == 13)
    }

    @Test func aMassDeletionExitsFourAsTheSyncWould() async throws {
        let pair = try VDirPair()
        defer { pair.remove() }
        for i in 0..<3 { try pair.write(pair.local, "e\(i).ics", TestEvent.data(uid: "e\(i)", summary: "Event \(i)")) }
        #expect(try await pair.run("sync").status == 0)
        for i in 0..<3 { try FileManager.default.removeItem(at: pair.local.appendingPathComponent("e\(i).ics")) }
        let r = try await pair.run("status")
        #expect(r.status == 4, "\(r.status) \(r.stdoutText) \(r.stderrText)")
        #expect(r.stdoutText.contains("warning: a sync would refuse"), "\(r.stdoutText)")
    }
}
