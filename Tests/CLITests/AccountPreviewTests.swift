import Foundation
import Testing
import CalgwTestSupport

/// What `sync --dry-run` and `status` say of a whole-account pair: the sum of its calendars'
/// previews, the calendars a sync would make on either side with what they hold, the items
/// its calendars' journals know and when they last synced, and one calendar with
/// `--collection`. A preview writes nothing on either side.
@Suite(.timeLimit(.minutes(10))) struct AccountPreviewTests {
    static func json(_ output: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]) ?? [:]
    }

    /// `created` of a sync report or `pending.created` of a status, as (local, remote).
    static func created(_ document: [String: Any]) -> (Int, Int)? {
        // A status has them under `pending`; a sync report's `pending` is a count of its own.
        let report = (document["pending"] as? [String: Any]).flatMap { $0["created"] == nil ? nil : $0 } ?? document
        guard let counts = report["created"] as? [String: Int], let local = counts["local"],
            let remote = counts["remote"]
        else { return nil }
        return (local, remote)
    }

    @Test func previewsCountNewCalendarsOnBothSidesAndStatusKnowsTheJournals() async throws {
        let server = try TestServers.start(TestServers.any())
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let id = account.id
        // On the server: a calendar of 3 events. Here: a folder of 2 events with no calendar.
        let serverOnly = "srv-\(id)", localOnly = "loc-\(id)"
        let calendar = try await account.makeCalendar(serverOnly)
        for i in 0..<3 {
            try await account.put(
                TestEvent.ics(uid: "s\(i)-\(id)", summary: "server \(i)", start: "20260301T100000Z", duration: "PT1H"),
                name: "s\(i)-\(id)", in: calendar)
        }
        let folder = account.local.appendingPathComponent(localOnly)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 0..<2 {
            try TestEvent.ics(uid: "l\(i)-\(id)", summary: "local \(i)", start: "20260301T100000Z", duration: "PT1H")
                .write(to: folder.appendingPathComponent("l\(i).ics"), atomically: true, encoding: .utf8)
        }

        let dry = try await account.calgw(["sync", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderrText)")
        let preview = Self.json(dry.stdoutText)
        #expect(Self.created(preview).map { $0 == (3, 2) } == true, "\(dry.stdoutText)")
        let notes = (preview["notes"] as? [String]) ?? []
        #expect(
            notes.contains { $0.contains(serverOnly) && $0.contains("would be copied into a new folder") }, "\(notes)")
        #expect(notes.contains { $0.contains(localOnly) && $0.contains("a calendar would be made") }, "\(notes)")
        // Nothing made on either side.
        #expect(!FileManager.default.fileExists(atPath: account.local.appendingPathComponent(serverOnly).path))
        let probe = try await account.curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-X", "PROPFIND", "-H", "Depth: 0",
            server.home.appendingPathComponent(localOnly, isDirectory: true).absoluteString,
        ])
        #expect(probe.stdoutText == "404", "the calendar for the new folder was made by a preview: \(probe.stdoutText)")

        let before = try await account.calgw(["status", "--json"])
        let pending = Self.json(before.stdoutText)
        #expect(Self.created(pending).map { $0 == (3, 2) } == true, "\(before.stdoutText)")
        #expect(pending["lastSync"] == nil || pending["lastSync"] is NSNull, "\(before.stdoutText)")

        let sync = try await account.calgw(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.stderrText)")
        #expect(
            Self.created(Self.json(sync.stdoutText)).map { $0 == (3, 2) } == true,
            "the preview said what the sync did: \(sync.stdoutText)")

        // After the sync: the journals' items and time; then a new calendar on the server.
        let newer = "new-\(id)"
        let third = try await account.makeCalendar(newer)
        try await account.put(
            TestEvent.ics(uid: "n0-\(id)", summary: "newer", start: "20260301T100000Z", duration: "PT1H"),
            name: "n0-\(id)", in: third)
        let after = try await account.calgw(["status", "--json"])
        let status = Self.json(after.stdoutText)
        #expect(status["synced"] as? Int == 5, "\(after.stdoutText)")
        #expect((status["lastSync"] as? String)?.hasPrefix("20") == true, "\(after.stdoutText)")
        #expect(Self.created(status).map { $0 == (1, 0) } == true, "\(after.stdoutText)")
        #expect(((status["notes"] as? [String]) ?? []).contains { $0.contains(newer) }, "\(after.stdoutText)")
        let text = try await account.calgw(["status"])
        #expect(
            text.stdoutText.contains("5 items synced") && !text.stdoutText.contains("last sync never"),
            "\(text.stdoutText)")
        #expect(text.stdoutText.contains("new calendar") && text.stdoutText.contains(newer), "\(text.stdoutText)")

        // One calendar only.
        let one = try await account.calgw(["status", "--collection", newer, "--json"])
        #expect(one.status == 0, "\(one.stderrText)")
        let only = Self.json(one.stdoutText)
        #expect(Array(((only["collections"] as? [String: Any]) ?? [:]).keys) == [newer], "\(one.stdoutText)")
        let unknown = try await account.calgw(["status", "--collection", "nosuch-\(id)"])
        #expect(unknown.status != 0 && unknown.stderrText.contains("no collection"), "\(unknown.stderrText)")
    }
}
