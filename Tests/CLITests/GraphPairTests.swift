import Foundation
import Testing
import CalgwTestSupport

/// A pair whose remote is an Outlook calendar through Microsoft Graph (`api = "graph"`, the
/// fake of Graph's calendar endpoints standing in for graph.microsoft.com), run by the command
/// as a person runs it: the mailbox's calendars discovered, the default one (`…/me/calendar`)
/// synced, then an event added with `event add`.
@Suite(.timeLimit(.minutes(5))) struct GraphPairTests {
    @Test func aGraphPairSyncsAndTakesTheEventCommands() throws {
        let graph = try TestGraphServer()
        defer { graph.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let config = folder.file("config.toml")
        try """
        [pair.work]
        local = "\(vdir.path)"
        remote = "\(graph.url.absoluteString)/me/calendar"
        api = "graph"
        token_command = ["echo", "\(graph.token)"]
        journal = "\(folder.file("work.sqlite").path)"
        """.write(to: config, atomically: true, encoding: .utf8)
        let made = try graph.graph(
            "POST", "/me/calendar/events",
            json: [
                "subject": "Planning",
                "start": ["dateTime": "2027-01-12T09:00:00", "timeZone": "Pacific Standard Time"],
                "end": ["dateTime": "2027-01-12T10:00:00", "timeZone": "Pacific Standard Time"],
            ])
        #expect(made.status == 201)

        let discovered = try CalgwBinary.run([
            "discover", graph.url.absoluteString + "/me/", "--api", "graph", "--token-command", "echo \(graph.token)",
            "--json",
        ])
        #expect(discovered.status == 0, "\(discovered.stderrText)")
        let rows = (try? JSONSerialization.jsonObject(with: discovered.stdout) as? [[String: Any]]) ?? []
        #expect(
            rows.map { $0["url"] as? String } == [try graph.defaultCalendar().absoluteString]
                && rows.first?["displayName"] as? String == "Calendar" && rows.first?["writable"] as? Bool == true,
            "\(discovered.stdoutText)")

        let synced = try CalgwBinary.run(["sync", "--json", "--config", config.path])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }
        #expect(files.count == 1)
        let text = try files.first.map { try String(contentsOf: vdir.appendingPathComponent($0), encoding: .utf8) }
        #expect(
            text?.contains("SUMMARY:Planning") == true && text?.contains("America/Los_Angeles") == true, "\(text ?? "")"
        )
        let lint = try CalgwBinary.run(["lint", vdir.appendingPathComponent(files[0]).path])
        #expect(lint.status == 0, "\(lint.stdoutText)\(lint.stderrText)")

        let added = try CalgwBinary.run(
            [
                "event", "add", "--summary", "Review", "--start", "2027-01-14T15:00", "--duration", "30m",
                "--tz", "Europe/Berlin", "--config", config.path,
            ])
        #expect(added.status == 0, "\(added.stderrText)")
        let listed = try graph.graph("GET", "/me/calendar/events")
        let subjects = ((listed.body as? [String: Any])?["value"] as? [[String: Any]] ?? []).compactMap {
            $0["subject"] as? String
        }
        #expect(Set(subjects) == ["Planning", "Review"], "\(listed)")

        let quiet = try CalgwBinary.run(["sync", "--json", "--config", config.path])
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")
    }
}
