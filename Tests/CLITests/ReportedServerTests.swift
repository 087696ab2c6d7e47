import Foundation
import Testing
import CalgwTestSupport

/// Servers no test can run, played by `Scripts/proxies/reported_proxy.py` over Radicale as
/// their users and python-caldav's compatibility hints report them (the proxy's README cites
/// each): iCloud and Open-Xchange (mailbox.org). Each test first shows the proxy does what it
/// stands for, then that calgw, told the server by the config (or its address, on the real
/// service), loses nothing there.
@Suite(.timeLimit(.minutes(10))) struct ReportedServerTests {
    /// A calendar on the shared Radicale holding `events` (uid, DTSTART), put by another client.
    static func calendar(_ server: TestServer, _ events: [(String, String)]) async throws -> URL {
        let collection = server.newCollectionURL(prefix: "reported")
        try await server.makeCalendar(collection)
        for (uid, start) in events {
            let put = try await ProcessRunner.run(
                "curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(server.username):\(server.password)",
                    "-X", "PUT", "--data-binary", "@-", "-H", "Content-Type: text/calendar",
                    collection.appendingPathComponent("\(uid).ics").absoluteString,
                ], stdin: TestEvent.data(uid: uid, summary: uid, start: start, duration: "PT1H"))
            try #require(put.stdoutText == "201", "PUT \(uid): \(put.stdoutText)")
        }
        return collection
    }

    /// The UIDs a calendar-query on VCALENDAR alone finds through `proxy`.
    static func queried(_ proxy: TestProxy, _ collection: URL, user: String, password: String) async throws -> [String]
    {
        let body =
            "<?xml version=\"1.0\"?><c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
            + "<d:prop><c:calendar-data/></d:prop><c:filter><c:comp-filter name=\"VCALENDAR\"/></c:filter></c:calendar-query>"
        let answer = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-u", "\(user):\(password)", "-X", "REPORT", "-H", "Depth: 1", "-H",
                "Content-Type: application/xml", "--data", body, proxy.proxied(collection).absoluteString,
            ])
        return answer.stdoutText.matches(of: /UID:([^\r\n<]+)/).map { String($0.1) }.sorted()
    }

    /// The UIDs of the vdir's files.
    static func uids(in vdir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }.compactMap {
            let text = try String(contentsOf: vdir.appendingPathComponent($0), encoding: .utf8)
            return text.matches(of: /UID:([^\r\n]+)/).first.map { String($0.1) }
        }.sorted()
    }

    /// iCloud: a query on VCALENDAR alone finds nothing, tasks are refused (403), and only an
    /// app-specific password signs in. A new pair pulls every event; a task in the vdir is said
    /// once and kept; a refused password names the app-specific password.
    @Test(.needsServer("radicale")) func iCloudLosesNothingAndSaysWhatItRefuses() async throws {
        let server = try TestServers.shared("radicale")
        let id = UUID().uuidString.prefix(6).lowercased()
        let events = (0..<3).map { ("ic\($0)-\(id)", "2027030\($0 + 1)T090000Z") }
        let collection = try await Self.calendar(server, events)
        let proxy = try TestProxies.reported(
            upstream: server.url,
            arguments: [
                "--vcalendar-query-empty", "--refuse-components", "VTODO,VJOURNAL", "--refuse-status", "403",
                "--app-password", "app-\(id)", "--upstream-password", server.password,
            ])
        defer { proxy.stop() }
        #expect(try await Self.queried(proxy, collection, user: server.username, password: "app-\(id)").isEmpty)

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(
            folder, "icloud", server: server, collection: proxy.proxied(collection), extra: ["server = \"icloud\""])
        let first = try await pair.run("sync", password: "app-\(id)")
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(try Self.uids(in: pair.vdir) == events.map(\.0).sorted(), "\(first.stdoutText)")

        let task =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\nBEGIN:VTODO\r\nUID:task-\(id)\r\n"
            + "DTSTAMP:20260101T000000Z\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try Data(task.utf8).write(to: pair.vdir.appendingPathComponent("task.ics"))
        let refused = try await pair.run("sync", password: "app-\(id)")
        let said = refused.stdoutText + refused.stderrText
        #expect(refused.status == 0 && said.contains("a task (VTODO)"), "\(said)")
        let quiet = try await pair.run("sync", password: "app-\(id)")
        #expect(
            quiet.status == 0 && !(quiet.stdoutText + quiet.stderrText).contains("VTODO"),
            "\(quiet.stdoutText)\(quiet.stderrText)")
        #expect(FileManager.default.fileExists(atPath: pair.vdir.appendingPathComponent("task.ics").path))
        #expect(proxy.logEntries().filter { $0["refused"] as? String == "component" }.count == 1)

        let wrong = try await pair.run("sync", password: server.password)
        #expect(wrong.status == 5, "\(wrong.stderrText)")
        #expect(wrong.stderrText.contains("app-specific password"), "\(wrong.stderrText)")
    }

    /// Open-Xchange (mailbox.org): a query without a time range finds only what is within about
    /// a year of now. A new pair told so pulls events years back and ahead too.
    @Test(.needsServer("radicale")) func openXchangesQueryWindowMissesNothing() async throws {
        let server = try TestServers.shared("radicale")
        let id = UUID().uuidString.prefix(6).lowercased()
        let now = Date()
        func day(_ years: Double) -> String {
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyyMMdd'T'090000'Z'"
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: now.addingTimeInterval(years * 365 * 86400))
        }
        let events = [("old-\(id)", day(-3)), ("now-\(id)", day(0.1)), ("far-\(id)", day(4))]
        let collection = try await Self.calendar(server, events)
        let proxy = try TestProxies.reported(upstream: server.url, arguments: ["--query-window-days", "365"])
        defer { proxy.stop() }
        #expect(
            try await Self.queried(proxy, collection, user: server.username, password: server.password)
                == ["now-\(id)"])

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(
            folder, "ox", server: server, collection: proxy.proxied(collection), extra: ["server = \"mailbox.org\""])
        let first = try await pair.run("sync", password: server.password)
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(try Self.uids(in: pair.vdir) == events.map(\.0).sorted(), "\(first.stdoutText)")
    }
}
