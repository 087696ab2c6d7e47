import Foundation
import Testing
import CalgwTestSupport

/// An account pair keeps one journal per calendar under `<journal>.d/`: a damaged one is moved
/// aside and that calendar matched again, the other calendars' journals left as they are.
@Suite(.timeLimit(.minutes(10))) struct AccountJournalRecoveryTests {
    @Test func aDamagedCalendarJournalIsMovedAsideAndItsCalendarMatchedAgain() async throws {
        let server = try TestServers.start(TestServers.any())
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let id = account.id
        let work = "work-\(id)", home = "home-\(id)"
        var calendars: [String: URL] = [:]
        for name in [work, home] {
            let calendar = try await account.makeCalendar(name)
            calendars[name] = calendar
            for i in 0..<3 {
                try await account.put(
                    TestEvent.ics(
                        uid: "\(name)-\(i)", summary: "event \(i)", start: "20260301T100000Z", duration: "PT1H"),
                    name: "\(name)-\(i)", in: calendar)
            }
        }
        var r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(r.stderrText)")

        // A change pending on each side, then the work calendar's journal overwritten.
        try Data(
            TestEvent.ics(uid: "\(work)-local", summary: "made here", start: "20260301T100000Z", duration: "PT1H").utf8
        )
        .write(to: account.local.appendingPathComponent("\(work)/local.ics"))
        try await account.put(
            TestEvent.ics(uid: "\(work)-remote", summary: "made there", start: "20260301T100000Z", duration: "PT1H"),
            name: "\(work)-remote", in: try #require(calendars[work]))
        let journal = account.stateFolder.appendingPathComponent("\(work).sqlite")
        let homeJournal = account.stateFolder.appendingPathComponent("\(home).sqlite")
        #expect(FileManager.default.fileExists(atPath: homeJournal.path))
        try Data(repeating: 0x5A, count: 8192).write(to: journal)

        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.stdoutText)")
        let skipped = json["skipped"] as? [String] ?? []
        #expect(
            skipped.contains {
                $0.hasPrefix(
                    "\(work): the journal \(journal.path) is not a database; moved it aside to \(journal.path).corrupt-"
                )
            },
            "\(skipped)")
        #expect(
            r.stderrText.contains("warning: account: \(work): the journal \(journal.path) is not a database"),
            "\(r.stderrText)")
        let state = try FileManager.default.contentsOfDirectory(atPath: account.stateFolder.path)
        #expect(
            state.filter { $0.hasPrefix("\(work).sqlite.corrupt-") && !$0.hasSuffix("-wal") }.count == 1, "\(state)")
        #expect(!state.contains { $0.hasPrefix("\(home).sqlite.corrupt-") }, "\(state)")

        // Nothing lost or doubled on either side.
        #expect(account.files(work).count == 5, "\(account.files(work))")
        #expect(account.files(home).count == 3, "\(account.files(home))")
        let listing = try await account.curl([
            "-X", "PROPFIND", "-H", "Depth: 1", try #require(calendars[work]).absoluteString,
        ])
        #expect(
            listing.stdoutText.components(separatedBy: ".ics</").count - 1 == 5, "\(listing.stdoutText.prefix(800))")

        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let again = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        for key in ["created", "updated", "deleted"] {
            #expect(again[key] as? [String: Int] == ["local": 0, "remote": 0], "\(key): \(r.stdoutText)")
        }
    }
}
