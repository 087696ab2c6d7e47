import CalgwTestSupport
import Foundation
import Testing

/// Busy blocks projected into an Outlook calendar (the Graph fake): each is an event shown as
/// busy and private, with the title alone, and Graph mails no one.
@Suite(.timeLimit(.minutes(10))) struct BusyGraphTargetTests {
    @Test func blocksInOutlookAreBusyPrivateAndMailNoOne() async throws {
        let server = try TestServers.shared(TestServers.any())
        let graph = try await TestGraphServer()
        defer { graph.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let collection = server.newCollectionURL(prefix: "busy-graph")
        try await server.makeCalendar(collection)
        let work = folder.file("work"), home = folder.file("home")
        for vdir in [work, home] {
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        }
        let config = folder.file("config.toml")
        let text = [
            TestPairConfig(
                name: "work", local: work, remote: collection, journal: folder.file("work.sqlite"),
                username: server.username, passwordEnv: "WORK_PW"
            ).toml,
            "[pair.home]", "local = \"\(home.path)\"", "remote = \"\(graph.url.absoluteString)/me/calendar\"",
            "api = \"graph\"", "token_command = [\"echo\", \"\(graph.token)\"]",
            "journal = \"\(folder.file("home.sqlite").path)\"", "",
            "[busy.work-to-home]", "from = [\"work\"]", "to = \"home\"", "",
        ].joined(separator: "\n")
        try Data(text.utf8).write(to: config)
        let event = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT", "UID:review",
            "DTSTAMP:20270101T000000Z", "DTSTART:20270310T090000Z", "DTEND:20270310T100000Z", "SUMMARY:Salary review",
            "DESCRIPTION:Confidential", "ORGANIZER:mailto:boss@example.org", "ATTENDEE:mailto:carol@example.org",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try Data(event.utf8).write(to: work.appendingPathComponent("review.ics"))

        let result = try await CalgwBinary.run(
            ["sync", "--all", "--config", config.path], environment: ["WORK_PW": server.password, "TZ": "UTC"])
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderrText)")
        #expect(result.stdoutText.contains("busy work-to-home: 1 made"), "\(result.stdoutText)")
        let events = TestGraphServer.values(try await graph.graph("GET", "/me/calendar/events"))
        #expect(events.count == 1, "\(events)")
        let block = try #require(events.first)
        #expect(block["subject"] as? String == "Busy" && block["showAs"] as? String == "busy", "\(block)")
        #expect(block["sensitivity"] as? String == "private", "\(block)")
        #expect(((block["attendees"] as? [Any]) ?? []).isEmpty, "\(block)")
        let body = ((block["body"] as? [String: Any])?["content"] as? String) ?? ""
        #expect(!body.contains("Confidential"), "\(block)")
        #expect(try await graph.ledger().isEmpty, "a block mails no one")
    }
}
