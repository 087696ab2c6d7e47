import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// Scenarios on two real vdirs (the engine as the CLI runs it, without the process).
@Suite struct VDirPairScenarioTests {
    struct Pair {
        let folder: TemporaryFolder
        let local: VDirStorage
        let remote: VDirStorage
        let journal: Journal
        init() throws {
            folder = try TemporaryFolder()
            local = VDirStorage(url: folder.file("local"))
            remote = VDirStorage(url: folder.file("remote"))
            journal = try Journal.open(at: folder.file("journal.sqlite"))
            try local.directory.createIfMissing()
            try remote.directory.createIfMissing()
        }
        func sync(_ policy: SyncPolicy = SyncPolicy()) async throws -> SyncReport {
            try await SyncEngine(local: local, remote: remote, journal: journal, policy: policy).run()
        }
        func files(_ s: VDirStorage) throws -> [String: Data] {
            var out: [String: Data] = [:]
            for e in try s.directory.scan() { out[e.name] = try s.directory.read(e.name)!.data }
            return out
        }
    }

    /// A vdir's change token hashes its listing, so a folder put back exactly as it was before
    /// a run's writes shows that run's first token again; it must not read as "unchanged".
    @Test func aFolderPutBackAsBeforeARunsWritesIsStillScanned() async throws {
        let pair = try Pair()
        defer { pair.folder.remove() }
        try TestEvent.data(uid: "kept", duration: "PT1H").write(to: pair.folder.file("remote/kept.ics"))
        _ = try await pair.sync()
        try TestEvent.data(uid: "pulled", duration: "PT1H").write(to: pair.folder.file("remote/pulled.ics"))
        #expect(try await pair.sync().created.local == 1)
        // The person deletes what the last run wrote: the folder is as that run found it.
        try FileManager.default.removeItem(at: pair.folder.file("local/pulled.ics"))
        let report = try await pair.sync()
        #expect(report.deleted.remote == 1)
        #expect(try pair.files(pair.remote).keys.sorted() == ["kept.ics"])
    }

    /// A run that wrote into a vdir on the remote side (a `file://` remote) keeps the token of
    /// the listing its journal records there too, so the next run with nothing changed ends
    /// after the two listings; a file another program rewrites afterwards is still found.
    @Test func aRunThatWroteIntoAVdirRemoteKeepsItsListingsToken() async throws {
        let pair = try Pair()
        defer { pair.folder.remove() }
        try TestEvent.data(uid: "sent", duration: "PT1H").write(to: pair.folder.file("local/sent.ics"))
        #expect(try await pair.sync().created.remote == 1)
        let token = try #require(
            try pair.journal.collection(.remote).token, "no remote token after a run that wrote there")
        guard case .unchanged = try await pair.remote.changes(since: token) else {
            Issue.record("the remote token kept is not the remote folder's listing")
            return
        }
        #expect(try await pair.sync() == SyncReport())
        let name = try #require(try pair.files(pair.remote).keys.first)
        try TestEvent.data(uid: "sent", summary: "Changed over there", duration: "PT1H").write(
            to: pair.folder.file("remote/\(name)"))
        #expect(try await pair.sync().updated.local == 1)
        #expect(
            String(decoding: try #require(try pair.files(pair.local)["sent.ics"]), as: UTF8.self).contains(
                "Changed over there"))
    }

    @Test func aOneMegabyteEventRoundTrips() async throws {
        let pair = try Pair()
        defer { pair.folder.remove() }
        let long = String(repeating: "0123456789abcdef", count: 65_536)  // 1 MiB of description
        let big = TestEvent.data(uid: "big", duration: "PT1H", extra: ["DESCRIPTION:\(long)"])
        #expect(big.count > 1_000_000)
        try big.write(to: pair.folder.file("local/big.ics"))
        let report = try await pair.sync()
        #expect(report.created.remote == 1)
        // Uploaded in canonical form (folded lines): the same content, not the same bytes.
        let uploaded = try #require(try pair.files(pair.remote).values.first)
        #expect(ContentHash.of(uploaded) == ContentHash.of(big))
        #expect(uploaded == UploadForm.canonical(big))
        #expect(try pair.files(pair.local).values.first == big)
        #expect(try await pair.sync() == SyncReport())
    }

    @Test func aRecurringEventWithOverridesStaysOneResource() async throws {
        let pair = try Pair()
        defer { pair.folder.remove() }
        let series = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:weekly\r\nDTSTART:20260105T090000Z\r\nRRULE:FREQ=WEEKLY\r\nSUMMARY:standup\r\nEND:VEVENT\r\n\
            BEGIN:VEVENT\r\nUID:weekly\r\nRECURRENCE-ID:20260112T090000Z\r\nDTSTART:20260112T100000Z\r\nSUMMARY:standup (late)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        try Data(series.utf8).write(to: pair.folder.file("remote/x.ics"))
        _ = try await pair.sync()
        let local = try pair.files(pair.local)
        #expect(local.keys.sorted() == ["weekly.ics"])
        #expect(
            String(decoding: local["weekly.ics"]!, as: UTF8.self).components(separatedBy: "BEGIN:VEVENT").count == 3)
        // An override added on one side, the master renamed on the other: both survive.
        let withOverride = series.replacingOccurrences(
            of: "END:VCALENDAR",
            with:
                "BEGIN:VEVENT\r\nUID:weekly\r\nRECURRENCE-ID:20260119T090000Z\r\nDTSTART:20260119T090000Z\r\nSUMMARY:cancelled\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\nEND:VCALENDAR"
        )
        try Data(withOverride.utf8).write(to: pair.folder.file("local/weekly.ics"))
        try Data(series.replacingOccurrences(of: "SUMMARY:standup\r\n", with: "SUMMARY:daily sync\r\n").utf8)
            .write(to: pair.folder.file("remote/x.ics"))
        let report = try await pair.sync()
        #expect(report.conflicts.first?.resolution == .resolved(.merge))
        let merged = String(decoding: try pair.files(pair.remote)["x.ics"]!, as: UTF8.self)
        #expect(merged.contains("SUMMARY:daily sync"))
        #expect(merged.contains("RECURRENCE-ID:20260119T090000Z"))
        #expect(merged.contains("SUMMARY:standup (late)"))
    }

    @Test func editorLeftoversAreNeverSynced() async throws {
        let pair = try Pair()
        defer { pair.folder.remove() }
        let e = TestEvent.data(uid: "e", duration: "PT1H")
        for name in ["e.ics", ".#e.ics", ".e.ics.swp", "e.ics~", ".e.ics.12345.tmp"] {
            try e.write(to: pair.folder.file("local/\(name)"))
        }
        let report = try await pair.sync()
        #expect(report.created.remote == 1)
        #expect(report.skipped.isEmpty)
    }

    @Test func twoFilesWithOneUIDAreReportedAndKept() async throws {
        let pair = try Pair()
        defer { pair.folder.remove() }
        try TestEvent.data(uid: "same", summary: "one", duration: "PT1H").write(to: pair.folder.file("local/a.ics"))
        try TestEvent.data(uid: "same", summary: "two", duration: "PT1H").write(to: pair.folder.file("local/b.ics"))
        let report = try await pair.sync()
        // An error of the run (exit 1), naming both files; the rest of the run goes on.
        #expect(report.errors.count == 1 && report.skipped.isEmpty, "\(report)")
        #expect(
            report.errors.lines.first?.contains("a.ics") == true && report.errors.lines.first?.contains("b.ics") == true
        )
        #expect(try pair.files(pair.local).count == 2)
        #expect(try pair.files(pair.remote).isEmpty)
    }

    @Test func aVdirsyncerSyncedPairIsTakenOverWithoutTransfers() async throws {
        let pair = try Pair()
        defer { pair.folder.remove() }
        // vdirsyncer names files after the server's hrefs and keeps the server's bytes.
        for i in 0..<20 {
            let e = TestEvent.data(uid: "ev\(i)@host", summary: "e\(i)", duration: "PT1H")
            try e.write(to: pair.folder.file("local/\(UUID().uuidString).ics"))
            try e.write(to: pair.folder.file("remote/srv-\(i).ics"))
        }
        let before = try pair.files(pair.local)
        let report = try await pair.sync()
        #expect(report == SyncReport())
        #expect(try pair.files(pair.local) == before)
        #expect(try pair.journal.items().count == 20)
    }
}
