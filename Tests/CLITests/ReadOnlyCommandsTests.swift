import Foundation
import Testing
import CalgwTestSupport

/// `status` and every `--dry-run` write nothing: not a vdir file, not an item on the server,
/// not a byte of the journal, even when an interrupted run left a half-written file and a
/// new file lacks a UID (both of which a real run changes).
@Suite(.timeLimit(.minutes(10))) struct ReadOnlyCommandsTests {
    /// Every file below `folder` (names and bytes), in order: what "unchanged" is checked on.
    static func contents(of folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where !name.hasSuffix(".lock") {
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out[name] = FileManager.default.contents(atPath: path) ?? Data()
            }
        }
        return out
    }

    @Test func statusAndDryRunsChangeNothing() async throws {
        let server = try TestServers.shared(TestServers.any())
        let auth = "\(server.username):\(server.password)"
        let collection = server.newCollectionURL(prefix: "readonly")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let id = UUID().uuidString.prefix(8).lowercased()
        for i in 0..<3 {
            let file = folder.file("up\(i).ics")
            try TestEvent.ics(uid: "r\(i)-\(id)", summary: "Remote \(i)", start: "20260301T100000Z", duration: "PT1H")
                .write(to: file, atomically: true, encoding: .utf8)
            _ = try await ProcessRunner.run(
                "curl",
                [
                    "-s", "-o", "/dev/null", "-u", auth, "-T", file.path, "-H", "Expect:", "-H",
                    "Content-Type: text/calendar",
                    collection.appendingPathComponent("r\(i).ics").absoluteString,
                ])
        }
        let vdir = folder.file("vdir"), state = folder.file("state")
        let config = folder.file("config.toml")
        try TestPairConfig(
            name: "p", local: vdir, collection: collection, journal: state.appendingPathComponent("p.sqlite"),
            server: server
        ).write(to: config)
        func calgw(_ arguments: [String], kill: Int? = nil) async throws -> ProcessRunner.Result {
            var environment = ["CALGW_TEST_PASSWORD": server.password]
            if let kill { environment["CALGW_TEST_KILL_AFTER"] = "\(kill)" }
            return try await CalgwBinary.run(arguments + ["--config", config.path], environment: environment)
        }
        func serverState() async throws -> String {
            try await ProcessRunner.run(
                "curl",
                [
                    "-s", "-u", auth, "-X", "PROPFIND", "-H", "Depth: 1", "--data",
                    "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop></d:propfind>",
                    collection.absoluteString,
                ]
            ).stdoutText
        }

        // A pull killed after its intents were recorded, before any file was written.
        let killed = try await calgw(["pull"], kill: 1)
        #expect(killed.status != 0, "the pull was not interrupted: \(killed.stderrText)")
        let pending = try await ProcessRunner.run(
            "python3",
            [
                "-c",
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                for (href,) in db.execute("SELECT href FROM intent WHERE state = 'pending' AND operation = 'create' AND side = 'local'"):
                    print(href)
                """, state.appendingPathComponent("p.sqlite").path,
            ]
        ).stdoutText.split(separator: "\n").map(String.init)
        let torn = try #require(pending.first, "no pending create intent after the kill")
        // The power cut's leftovers: a file cut short at that name, and a new file without a UID.
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let tornName = torn.hasSuffix(".ics") ? torn : torn + ".ics"
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEV".utf8).write(to: vdir.appendingPathComponent(tornName))
        try TestEvent.ics(uid: nil, summary: "No UID yet", start: "20260301T100000Z", duration: "PT1H")
            .write(to: vdir.appendingPathComponent("hand.ics"), atomically: true, encoding: .utf8)

        let before = (try Self.contents(of: vdir), try Self.contents(of: state), try await serverState())
        #expect(before.1.keys.contains("p.sqlite"))
        for arguments in [
            ["status"], ["status", "--json"], ["sync", "--dry-run"], ["pull", "--dry-run"],
            ["push", "--dry-run", "--json"],
        ] {
            let r = try await calgw(arguments)
            #expect([0, 1].contains(r.status), "\(arguments): \(r.status) \(r.stderrText)")
            #expect(try Self.contents(of: vdir) == before.0, "\(arguments) changed the vdir")
            let journal = try Self.contents(of: state)
            let changed = Set(journal.keys).union(before.1.keys).filter { journal[$0] != before.1[$0] }.sorted()
            #expect(changed.isEmpty, "\(arguments) changed the journal: \(changed)")
            #expect(try await serverState() == before.2, "\(arguments) changed the server")
        }

        // The real run settles all of it: the torn file replaced by the event, the new file given
        // a UID and uploaded; then nothing is left to do.
        var r = try await calgw(["sync", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let texts = try Self.contents(of: vdir).filter { $0.key.hasSuffix(".ics") }.values.map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(texts.count == 4 && texts.allSatisfy { $0.contains("END:VCALENDAR") }, "\(texts)")
        let hand = try String(contentsOf: vdir.appendingPathComponent("hand.ics"), encoding: .utf8)
        let uidLine = try #require(hand.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }, "\(hand)")
        #expect(
            try await ProcessRunner.run(
                "curl",
                [
                    "-s", "-u", auth, "-X", "REPORT", "-H", "Depth: 1", "--data",
                    "<c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><c:calendar-data/></d:prop>"
                        + "<c:filter><c:comp-filter name=\"VCALENDAR\"/></c:filter></c:calendar-query>",
                    collection.absoluteString,
                ]
            ).stdoutText.contains(uidLine), "the server lacks \(uidLine)")
        r = try await calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(r.stdoutText) \(r.stderrText)")
    }
}
