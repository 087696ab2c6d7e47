import Foundation
import Testing
import CalgwTestSupport

/// SOGo 5.8, as a university or a hosting company runs it (Debian's package, PostgreSQL,
/// memcached, an SQL user source, mail to an SMTP server): what a person meets on the first
/// day. It answers a calendar-query filtered on VCALENDAR alone with nothing, files the
/// personal calendar as the Outbox too, and delivers every write of a meeting to its users
/// and by mail, whatever the client asks.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SOGoTests {
    static let runs = TestServers.runs("sogo")

    /// `curl` as `user` on the server, the body of the answer.
    static func curl(_ server: TestServer, _ arguments: [String], user: String? = nil, password: String? = nil)
        async throws -> String
    {
        try await ProcessRunner.run(
            "curl",
            ["-s", "--max-time", "60", "-u", "\(user ?? server.username):\(password ?? server.password)"] + arguments
        ).stdoutText
    }

    /// PUTs `ics` as `name` into `collection`, answering its status.
    static func put(_ server: TestServer, _ ics: String, as name: String, in collection: URL) async throws -> String {
        try await ProcessRunner.run(
            "curl",
            [
                "-s", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", "-u",
                "\(server.username):\(server.password)", "-X", "PUT", "-H",
                "Content-Type: text/calendar; charset=utf-8",
                "--data-binary", ics, collection.appendingPathComponent(name).absoluteString,
            ]
        ).stdoutText
    }

    /// The summaries the collection holds, by UID (a calendar-query SOGo answers: on VEVENT).
    static func serverSummaries(
        _ server: TestServer, _ collection: URL, user: String? = nil, password: String? = nil
    ) async throws -> [String: String] {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
            <d:prop><c:calendar-data/></d:prop>
            <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"/></c:comp-filter></c:filter>
            </c:calendar-query>
            """
        let xml = try await curl(
            server,
            [
                "-X", "REPORT", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data", body,
                collection.absoluteString,
            ],
            user: user, password: password)
        var found: [String: String] = [:]
        for event in xml.components(separatedBy: "BEGIN:VEVENT").dropFirst() {
            let lines = event.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: .newlines)
            let uid = lines.first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
            let summary = lines.first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }
            if let uid {
                found[uid.trimmingCharacters(in: .whitespaces)] = summary?.trimmingCharacters(in: .whitespaces) ?? ""
            }
        }
        return found
    }

    static func event(_ uid: String, _ summary: String, day: Int = 1) -> String {
        let date = String(format: "202703%02d", day)
        return TestEvent.ics(uid: uid, summary: summary, start: "\(date)T100000Z", end: "\(date)T110000Z")
    }

    @Test(.enabled(if: runs, "CALGW_TEST_SERVERS leaves sogo out"))
    func discoveryFindsThePersonalCalendarAndNamesTheServer() async throws {
        let server = try TestServers.shared("sogo")
        let found = try await CalgwBinary.run(
            [
                "discover", server.url.absoluteString, "--username", server.username, "--password-env",
                "CALGW_TEST_DAV_PASSWORD",
            ], environment: ["CALGW_TEST_DAV_PASSWORD": server.password])
        let said = found.stdoutText + found.stderrText
        #expect(found.status == 0 && said.contains("/SOGo/dav/alice/Calendar/personal/"), "\(said)")
        #expect(
            said.contains("server: SOGo (server = \"sogo\")") && said.contains("copies of meetings stay"), "\(said)")
        // The principal is no calendar address.
        let account = said.split(separator: "\n").first { $0.hasPrefix("account: ") } ?? ""
        #expect(account.contains("mailto:alice@example.net") && !account.contains("/SOGo/dav/alice"), "\(account)")
    }

    /// A new pair on a calendar that holds events pulls them all, and later runs find
    /// nothing more to do.
    @Test(.enabled(if: runs, "CALGW_TEST_SERVERS leaves sogo out"))
    func aNewPairPullsWhatTheCalendarHolds() async throws {
        let server = try TestServers.shared("sogo")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let collection = server.newCollectionURL(prefix: "held")
        try await server.makeCalendar(collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        for i in 0..<3 {
            let status = try await Self.put(
                server, Self.event("held\(i)-\(id)", "Held \(i)", day: i + 1), as: "held\(i)-\(id).ics", in: collection)
            #expect(status == "201", "PUT answered \(status)")
        }
        let pair = try ServerPair(folder, "held", server: server, collection: collection)
        let pulled = try await pair.run("sync", password: server.password)
        #expect(
            pulled.status == 0 && pulled.stdoutText.contains("local: 3 created"),
            "\(pulled.stdoutText)\(pulled.stderrText)")
        #expect(try pair.summaries() == ["held0-\(id)": "Held 0", "held1-\(id)": "Held 1", "held2-\(id)": "Held 2"])
        // SOGo serves them without the last line break; the files have it.
        for name in try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path) where name.hasSuffix(".ics") {
            let bytes = try Data(contentsOf: pair.vdir.appendingPathComponent(name))
            #expect(bytes.suffix(2) == Data([13, 10]), "\(name) ends without CRLF")
        }
        let status = try await pair.run("status", ["--json"], password: server.password)
        #expect(status.status == 0 && !status.stdoutText.contains("held0-\(id)"), "\(status.stdoutText)")
    }

    /// A vdir synced for the first time onto a calendar that already holds its events (a lost
    /// journal, a second machine) loses none of the server's edits, though SOGo takes a create
    /// onto a taken name whatever If-None-Match says.
    @Test(.enabled(if: runs, "CALGW_TEST_SERVERS leaves sogo out"))
    func aFirstSyncOverTheSameEventsKeepsTheServersEdits() async throws {
        let server = try TestServers.shared("sogo")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let collection = server.newCollectionURL(prefix: "again")
        try await server.makeCalendar(collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        let uids = (0..<3).map { "again\($0)-\(id)" }
        let pair = try ServerPair(folder, "again", server: server, collection: collection)
        for (i, uid) in uids.enumerated() {
            try Data(Self.event(uid, "Plain \(i)", day: i + 1).utf8).write(
                to: pair.vdir.appendingPathComponent("\(uid).ics"))
            // The server's copy; the second one edited there since (on a phone).
            let text = Self.event(uid, i == 1 ? "Moved on the phone" : "Plain \(i)", day: i + 1)
            _ = try await Self.put(server, text, as: "\(uid).ics", in: collection)
        }
        let first = try await pair.run("sync", password: server.password)
        let said = first.stdoutText + first.stderrText
        // The two the server only added to (CLASS:PUBLIC) are one item each; the one edited on
        // both sides with no history keeps the server's edit, and the file becomes a copy.
        #expect(first.status == 0 && said.contains("remote: 1 created"), "\(said)")
        let onServer = try await Self.serverSummaries(server, collection)
        let local = try pair.summaries()
        #expect(onServer == local, "server \(onServer), vdir \(local): \(said)")
        #expect(local[uids[0]] == "Plain 0" && local[uids[1]] == "Moved on the phone" && local[uids[2]] == "Plain 2")
        #expect(
            local.count == 4 && local.contains { $0.key.hasPrefix("\(uids[1])-conflict-") && $0.value == "Plain 1" })
        let again = try await pair.run("sync", password: server.password)
        #expect(again.status == 0, "\(again.stdoutText)\(again.stderrText)")
        #expect(try await Self.serverSummaries(server, collection)[uids[1]] == "Moved on the phone")
    }

    /// Copies of meetings reach nobody: SOGo would deliver every write of one to its users and
    /// mail the rest, so they stay in the vdir, said once; nothing reaches bob or the mail.
    @Test(.enabled(if: runs, "CALGW_TEST_SERVERS leaves sogo out"))
    func copiesOfMeetingsReachNobody() async throws {
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let server = try TestServers.start("sogo", settings: ["CALGW_SOGO_SMTP_PORT": "\(sink.port)"])
        defer { server.stop() }
        let bob = try #require(server.attendee)
        let organizer = try #require(server.address)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let collection = server.newCollectionURL(prefix: "meet")
        try await server.makeCalendar(collection)
        let pair = try ServerPair(folder, "meet", server: server, collection: collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        let uids = (0..<2).map { "meet\($0)-\(id)" }
        for (i, uid) in uids.enumerated() {
            let text = MeetingCopyTests.meeting(
                uid, summary: "Planning \(i)", organizer: organizer, attendee: bob.address, day: i + 1)
            try Data(text.utf8).write(to: pair.vdir.appendingPathComponent("\(uid).ics"))
        }
        try Data(Self.event("plain-\(id)", "Plain").utf8).write(to: pair.vdir.appendingPathComponent("plain-\(id).ics"))

        let first = try await pair.run("sync", password: server.password)
        let said = first.stdoutText + first.stderrText
        #expect(first.status == 0 && said.contains("remote: 1 created"), "\(said)")
        #expect(said.components(separatedBy: "not sent to SOGo").count - 1 == 2, "\(said)")
        let second = try await pair.run("sync", password: server.password)
        #expect(second.status == 0 && !(second.stdoutText + second.stderrText).contains("not sent to SOGo"))

        let bobs = try await Self.serverSummaries(
            server, bob.home.appendingPathComponent("personal/", isDirectory: true), user: bob.username,
            password: bob.password)
        #expect(!bobs.keys.contains { $0.hasSuffix(id) }, "bob's calendar: \(bobs)")
        let mailed = try sink.messages()
        #expect(mailed.isEmpty, "mailed: \(mailed.map(\.to))")
        #expect(try await Self.serverSummaries(server, collection).keys.sorted() == ["plain-\(id)"])
    }
}
