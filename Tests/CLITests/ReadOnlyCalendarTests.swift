import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// A calendar shared with the account read-only (Radicale's rights file: `ro-shared-*`
/// calendars may only be read) syncs one way, quietly: the first run that finds a local change
/// says once that the calendar is read-only and keeps the change in the vdir, exit 0; later
/// runs say nothing and send nothing; a local edit the server also changed is kept as a
/// conflict copy beside the server's version. `status` marks the calendar read-only.
@Suite(.timeLimit(.minutes(10)), .needsServer("radicale")) struct ReadOnlyCalendarTests {
    static func event(_ uid: String, _ summary: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20270301T100000Z\r\nDTEND:20270301T110000Z\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    @Test func aReadOnlyCalendarSyncsOneWayAndSaysSoOnce() throws {
        let server = try TestServers.shared("radicale")
        let id = UUID().uuidString.prefix(8).lowercased()
        // Made in Radicale's storage: the account itself may not make it (nor write into it).
        let name = "ro-shared-\(id)"
        let stored = server.stateFolder.appendingPathComponent("collections/collection-root/\(server.username)/\(name)")
        try FileManager.default.createDirectory(at: stored, withIntermediateDirectories: true)
        try Data(#"{"tag": "VCALENDAR", "D:displayname": "Shared"}"#.utf8).write(to: stored.appendingPathComponent(".Radicale.props"))
        for i in 0..<2 { try Data(Self.event("ro\(i)-\(id)", "shared \(i)").utf8).write(to: stored.appendingPathComponent("ro\(i)-\(id).ics")) }
        let collection = server.home.appendingPathComponent("\(name)/", isDirectory: true)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try SyncServerScenarioTests().makePair(folder, "ro", server: server, collection: collection)

        let first = try pair.run("sync", password: server.password)
        #expect(first.status == 0 && first.stdoutText.contains("local: 2 created"), "\(first.stdoutText)\(first.stderrText)")

        // Edited and added here: kept here, said once.
        try Data(Self.event("ro0-\(id)", "edited here").utf8).write(to: try pair.file(uid: "ro0-\(id)"))
        try Data(Self.event("new-\(id)", "new here").utf8).write(to: pair.vdir.appendingPathComponent("new-\(id).ics"))
        let kept = try pair.run("sync", password: server.password)
        #expect(kept.status == 0, "\(kept.stdoutText)\(kept.stderrText)")
        #expect(kept.stdoutText.contains("the calendar is read-only for this account"), "\(kept.stdoutText)")
        #expect(!kept.stderrText.contains("error"), "\(kept.stderrText)")
        let onServer = try FileManager.default.contentsOfDirectory(atPath: stored.path).filter { $0.hasSuffix(".ics") }
        #expect(onServer.count == 2, "the server got a write: \(onServer)")
        #expect(try String(contentsOf: stored.appendingPathComponent("ro0-\(id).ics"), encoding: .utf8).contains("SUMMARY:shared 0"))

        let again = try pair.run("sync", password: server.password)
        #expect(again.status == 0 && !again.stdoutText.contains("read-only") && again.stderrText.isEmpty,
                "a later run says it again: \(again.stdoutText)\(again.stderrText)")
        #expect(try pair.summaries()["ro0-\(id)"] == "edited here" && pair.summaries()["new-\(id)"] == "new here")
        // `status` says it every time, with what waits.
        let status = try pair.run("status", password: server.password)
        #expect(status.status == 0 && status.stdoutText.contains("read-only for this account"), "\(status.stdoutText)\(status.stderrText)")

        // The server's owner changes the event edited here: its version comes, the edit stays as a copy.
        try Data(Self.event("ro0-\(id)", "changed by the owner").utf8).write(to: stored.appendingPathComponent("ro0-\(id).ics"))
        let conflict = try pair.run("sync", password: server.password)
        #expect(conflict.status == 0, "\(conflict.stdoutText)\(conflict.stderrText)")
        let summaries = try pair.summaries()
        #expect(summaries["ro0-\(id)"] == "changed by the owner", "\(summaries)")
        #expect(summaries.contains { $0.key.hasPrefix("ro0-\(id)-conflict-") && $0.value == "edited here" }, "\(summaries)")
        #expect(summaries["new-\(id)"] == "new here")
    }
}
