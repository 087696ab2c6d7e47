import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// The engine with a single file as its local side: another program's edits made in the middle
/// of a run survive it, and the run converges.
@Suite struct SingleFileSyncTests {
    static func calendar(_ events: [(uid: String, summary: String, extra: String)]) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nX-WR-CALNAME:Mine\r\n"
        for e in events {
            text +=
                "BEGIN:VEVENT\r\nUID:\(e.uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260310T100000Z\r\nDURATION:PT1H\r\n"
                + "SUMMARY:\(e.summary)\r\n\(e.extra)END:VEVENT\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    /// Replaces the remote item of `uid` with `data`.
    static func edit(_ remote: InMemoryStorage, uid: String, _ data: Data) async throws {
        guard case .full(let versions, _) = try await remote.changes(since: nil) else {
            Issue.record("a full listing"); return
        }
        for item in try await remote.fetch(versions.map(\.href)) where ItemContent(item.data).uid == uid {
            _ = try await remote.update(href: item.href, data: data, ifMatch: item.etag)
        }
    }

    @Test func anEditMadeDuringARunIsMergedNotClobbered() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("calendar.ics")
        try Data(Self.calendar([("a", "a", ""), ("b", "b", ""), ("c", "c", "")]).utf8).write(to: file)
        let local = SingleFileStorage(url: file), remote = InMemoryStorage()
        let journal = try Journal.inMemory()
        _ = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(remote.contents.count == 3)

        // The server changes a's and b's summaries.
        try await Self.edit(
            remote, uid: "a",
            TestEvent.data(uid: "a", summary: "a on the server", start: "20260310T100000Z", duration: "PT1H"))
        try await Self.edit(
            remote, uid: "b",
            TestEvent.data(uid: "b", summary: "b on the server", start: "20260310T100000Z", duration: "PT1H"))
        // Once the run has planned and recorded its intents, another program rewrites the file:
        // b gets a location, c a new summary.
        let byHand = Self.calendar([("a", "a", ""), ("b", "b", "LOCATION:By hand\r\n"), ("c", "c by hand", "")])
        let hook: FaultHook = { n in
            if n == 1 {
                try Data(byHand.utf8).write(to: folder.file("other.tmp"))
                _ = rename(folder.file("other.tmp").path, file.path)
            }
        }
        let report = try await SyncEngine(local: local, remote: remote, journal: journal, faultHook: hook).run()
        #expect(report.errors.isEmpty, "\(report.errors)")

        var text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(text.contains("SUMMARY:a on the server"))
        #expect(text.contains("SUMMARY:b on the server") && text.contains("LOCATION:By hand"), "b merged:\n\(text)")
        #expect(text.contains("SUMMARY:c by hand"), "the other program's edit of c is kept:\n\(text)")
        #expect(text.contains("X-WR-CALNAME:Mine"))

        // The next run sends what the other program did, and both sides agree.
        _ = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        let server = remote.contents.values.map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(
            server.contains("SUMMARY:c by hand") && server.contains("LOCATION:By hand")
                && server.contains("SUMMARY:b on the server"))
        let quiet = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        for side in Side.allCases { #expect(quiet.created[side] + quiet.updated[side] + quiet.deleted[side] == 0) }
        text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 4)
    }

    @Test func anEventWithoutAUIDIsGivenOneInTheFileAndOnTheServer() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("calendar.ics")
        let text = Self.calendar([("a", "a", "")]).replacingOccurrences(
            of: "END:VCALENDAR",
            with:
                "BEGIN:VEVENT\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260311T100000Z\r\nSUMMARY:No UID\r\nEND:VEVENT\r\nEND:VCALENDAR"
        )
        try Data(text.utf8).write(to: file)
        let local = SingleFileStorage(url: file), remote = InMemoryStorage()
        let journal = try Journal.inMemory()
        // A status-like dry run changes nothing: the event goes by a key made of its content.
        _ = try await SyncEngine(local: local, remote: remote, journal: journal).run(dryRun: true)
        #expect(try Data(contentsOf: file) == Data(text.utf8))

        let report = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        #expect(report.errors.isEmpty && report.created[.remote] == 2, "\(report)")
        let after = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let block = try #require(after.components(separatedBy: "BEGIN:VEVENT").first { $0.contains("SUMMARY:No UID") })
        let uid = try #require(block.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }?.dropFirst(4))
        #expect(remote.contents.values.contains { ItemContent($0).uid == String(uid) })
        let again = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        for side in Side.allCases { #expect(again.created[side] + again.updated[side] + again.deleted[side] == 0) }
    }
}
