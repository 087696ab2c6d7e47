import Foundation
import Testing
import ICalendar
import CalgwTestSupport

/// Regression tests for three ways calgw lost or duplicated data, on real servers:
/// a hand-written CRLF file without a UID was never uploaded; `event open` threw away a fix
/// saved with CRLF line endings; `event add` failed (inviting a rerun and a duplicate) after the
/// event had been created.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LineEndingAndPendingPushTests {
    static func makeCollection(_ server: TestServer, prefix: String) async throws -> URL {
        let collection = server.newCollectionURL(prefix: prefix)
        try await server.makeCalendar(collection)
        return collection
    }

    /// The UIDs of the events in a collection, read from the server with curl.
    static func serverUIDs(_ server: TestServer, _ collection: URL) async throws -> [String] {
        try await server.uids(in: collection)
    }

    static func lines(_ text: String, _ ending: String) -> Data {
        Data(text.split(separator: "\n").joined(separator: ending).appending(ending).utf8)
    }

    static let uidless = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//hand//written//EN
        BEGIN:VEVENT
        DTSTAMP:20260101T000000Z
        DTSTART:20260310T100000Z
        DTEND:20260310T110000Z
        SUMMARY:SUMMARY_TEXT
        END:VEVENT
        END:VCALENDAR
        """

    /// A file without a UID is given one and uploaded, whatever its line endings; the next run
    /// has nothing to do. (With CRLF the UID was never inserted and the file silently skipped.)
    @Test(arguments: TestServers.selected)
    func uidlessFilesWithAnyLineEndingsAreUploaded(server name: String) async throws {
        let server = try TestServers.shared(name)
        let collection = try await Self.makeCollection(server, prefix: "nouid")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "n", server: server, collection: collection)
        let endings = ["lf": "\n", "crlf": "\r\n"]
        for (label, ending) in endings {
            let text = Self.uidless.replacingOccurrences(of: "SUMMARY_TEXT", with: "by hand \(label)")
            try Self.lines(text, ending).write(to: pair.vdir.appendingPathComponent("\(label).ics"))
        }
        // Mixed: CRLF with one LF line.
        let mixed = String(
            decoding: Self.lines(Self.uidless.replacingOccurrences(of: "SUMMARY_TEXT", with: "by hand mixed"), "\r\n"),
            as: UTF8.self
        )
        .replacingOccurrences(of: "DTSTART:20260310T100000Z\r\n", with: "DTSTART:20260310T100000Z\n")
        try Data(mixed.utf8).write(to: pair.vdir.appendingPathComponent("mixed.ics"))

        let sync = try await pair.run("sync", ["--json"], password: server.password)
        #expect(sync.status == 0, "\(name): \(sync.stderrText)")
        let report = try JSONSerialization.jsonObject(with: sync.stdout) as? [String: Any]
        #expect((report?["created"] as? [String: Int])?["remote"] == 3, "\(name): \(sync.stdoutText)")

        var fileUIDs: [String] = []
        for label in ["lf", "crlf", "mixed"] {
            let data = try Data(contentsOf: pair.vdir.appendingPathComponent("\(label).ics"))
            let text = String(decoding: data, as: UTF8.self)
            let uid = try #require(
                text.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n")
                    .first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }, "\(name): \(label) got no UID")
            fileUIDs.append(uid)
            if label == "crlf" {  // the file keeps its own line endings, the UID line included
                #expect(
                    !text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "\(name): CRLF file got LF lines")
            }
        }
        #expect(try await Self.serverUIDs(server, collection) == fileUIDs.sorted(), "\(name)")
        let again = try await pair.run("sync", ["--json"], password: server.password)
        #expect(again.status == 0, "\(name): \(again.stderrText)")
        let second = try JSONSerialization.jsonObject(with: again.stdout) as? [String: Any]
        #expect((second?["created"] as? [String: Int]) == ["local": 0, "remote": 0], "\(name): \(again.stdoutText)")
        #expect((second?["updated"] as? [String: Int]) == ["local": 0, "remote": 0], "\(name): \(again.stdoutText)")
    }

    /// An editor that breaks the file on the first save and fixes it on the second, saving with
    /// CRLF line endings as editors that normalise them do: the fix is written and pushed.
    @Test func eventOpenKeepsAFixSavedWithCRLF() async throws {
        let server = try TestServers.shared(TestServers.any())
        let collection = try await Self.makeCollection(server, prefix: "opencrlf")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "o", server: server, collection: collection)
        let add = try await CalgwBinary.run(
            ["event", "add", "--summary", "Before", "--start", "2026-03-23T09:30", "--config", pair.config.path],
            environment: ["TZ": "Europe/Berlin", "CALGW_TEST_PASSWORD": server.password])
        #expect(add.status == 0, "\(add.stderrText)")
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let runs = folder.file("runs")
        let editor = folder.file("editor.sh")
        try """
        #!/bin/sh
        count=$(cat "\(runs.path)" 2>/dev/null || echo 0)
        echo $((count + 1)) > "\(runs.path)"
        if [ "$count" = 0 ]; then
          sed -i 's/^END:VEVENT/X-BROKEN/' "$1"
        else
          grep -q '^# ' "$1" || exit 3
          sed -i 's/\\r$//; s/^X-BROKEN.*/END:VEVENT/; s/^SUMMARY:.*/SUMMARY:Fixed with CRLF/; s/$/\\r/' "$1"
        fi
        """.write(to: editor, atomically: true, encoding: .utf8)
        chmod(editor.path, 0o755)
        // On a terminal: the save with errors reopens the editor (without one it would end the command).
        let open = try await EventOpenTests().onTerminal(
            ["event", "open", uid, "--config", pair.config.path],
            environment: ["TZ": "Europe/Berlin", "VISUAL": editor.path, "CALGW_TEST_PASSWORD": server.password])
        #expect(open.status == 0, "\(open.stdoutText)")
        #expect(!open.stdoutText.contains("nothing written"), "\(open.stdoutText)")
        #expect(try String(contentsOf: runs, encoding: .utf8).hasPrefix("2"))
        let text = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8)
        #expect(text.contains("SUMMARY:Fixed with CRLF") && !text.contains("#"), "\(text)")
        let status = try await pair.run("status", ["--json"], password: server.password)
        #expect(status.status == 0 && status.stdoutText.contains("\"remote\" : 0"), "\(status.stdoutText)")
    }

    /// `event add` with the server down: the UID is printed, the exit status is 0 with a
    /// warning, and the next push sends the event once. Adding again is what the person would
    /// have done after a failure: it must not be needed.
    @Test func eventAddWithTheServerDownPrintsTheUIDAndPushesOnce() async throws {
        let server = try TestServers.shared(TestServers.any())
        let collection = try await Self.makeCollection(server, prefix: "adddown")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "a", server: server, collection: collection)
        let real = try String(contentsOf: pair.config, encoding: .utf8)
        // Port 9 (discard): nothing listens there, so the connection is refused.
        try real.replacingOccurrences(of: collection.absoluteString, with: "http://127.0.0.1:9/cal/")
            .write(to: pair.config, atomically: true, encoding: .utf8)
        let add = try await CalgwBinary.run(
            [
                "event", "add", "--summary", "Offline by accident", "--start", "2026-04-01T10:00",
                "--json", "--config", pair.config.path,
            ],
            environment: ["TZ": "Europe/Berlin", "CALGW_TEST_PASSWORD": server.password])
        #expect(add.status == 0, "\(add.stderrText)")
        struct Added: Decodable { var uid: String; var pushed: Bool; var pending: String? }
        let added = try JSONDecoder().decode(Added.self, from: add.stdout)
        #expect(!added.pushed && added.pending != nil, "\(add.stdoutText)")
        #expect(
            add.stderrText.contains("warning: the change is saved in the vdir")
                && add.stderrText.contains("calgw push"),
            "\(add.stderrText)")
        #expect(FileManager.default.fileExists(atPath: pair.vdir.appendingPathComponent(added.uid + ".ics").path))

        try real.write(to: pair.config, atomically: true, encoding: .utf8)
        let push = try await pair.run("push", password: server.password)
        #expect(push.status == 0, "\(push.stderrText)")
        #expect(try await Self.serverUIDs(server, collection) == [added.uid])
    }

    /// `event add` with an unrelated broken file in the vdir: the event reaches the server, so
    /// the command says so and exits 0; the broken file is still reported by `status`.
    @Test func eventAddBesideABrokenFileSucceeds() async throws {
        let server = try TestServers.shared(TestServers.any())
        let collection = try await Self.makeCollection(server, prefix: "addbroken")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "b", server: server, collection: collection)
        try Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:broken\r\nDTSTART:nonsense\r\n".utf8)
            .write(to: pair.vdir.appendingPathComponent("broken.ics"))
        let add = try await CalgwBinary.run(
            [
                "event", "add", "--summary", "Beside a broken file", "--start", "2026-04-02T10:00",
                "--config", pair.config.path,
            ],
            environment: ["TZ": "Europe/Berlin", "CALGW_TEST_PASSWORD": server.password])
        #expect(add.status == 0, "\(add.stderrText)")
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!uid.isEmpty && !add.stderrText.contains("warning"), "\(add.stdoutText) \(add.stderrText)")
        #expect(try await Self.serverUIDs(server, collection) == [uid])
        let status = try await pair.run("status", password: server.password)
        #expect(status.status == 1 && status.stderrText.contains("broken.ics"), "\(status.stderrText)")
    }
}
