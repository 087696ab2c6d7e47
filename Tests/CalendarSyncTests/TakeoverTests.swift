import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A first sync of two sides that already hold the same items (a folder another tool kept in
/// sync, or a copy of it): nothing is written on either side, every item is recorded with its
/// merge base, and the scans keep no item's bytes.
@Suite struct TakeoverTests {
    static let events = 300

    @Test func twoEqualFoldersAreRecordedWithTheirBaseAndTheBaseServesALaterMerge() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (local, remote) = try folder.vdirPair()
        for i in 0..<Self.events {
            let text = Data(
                TestEvent.ics(uid: "e\(i)", summary: "event \(i)", start: "20260301T090000Z", end: "20260301T100000Z")
                    .utf8)
            try text.write(to: local.directory.url.appendingPathComponent("e\(i).ics"))
            try text.write(to: remote.directory.url.appendingPathComponent("copy-\(i).ics"))
        }
        let journal = try Journal.open(at: folder.file("journal.sqlite"))
        var policy = SyncPolicy()
        policy.conflict = .merge
        let before = try local.directory.scan() + remote.directory.scan()

        let report = try await SyncEngine(local: local, remote: remote, journal: journal, policy: policy).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(
            report.created[.local] + report.created[.remote] + report.updated[.local] + report.updated[.remote] == 0,
            "\(report.summary)")
        #expect(try local.directory.scan() + remote.directory.scan() == before, "a file was written")
        let rows = try journal.items()
        #expect(rows.count == Self.events)
        for row in rows {
            let base = try journal.base(for: row.key) ?? Data()
            #expect(
                String(decoding: base, as: UTF8.self).contains("UID:\(row.key.value)"), "no merge base for \(row.key)")
        }

        // Each side edits a different property of one event: the base recorded by the
        // takeover lets the merge keep both edits.
        let localFile = local.directory.url.appendingPathComponent("e5.ics")
        let remoteFile = remote.directory.url.appendingPathComponent("copy-5.ics")
        try Data(
            TestEvent.ics(uid: "e5", summary: "renamed here", start: "20260301T090000Z", end: "20260301T100000Z").utf8
        ).write(to: localFile)
        try Data(
            TestEvent.ics(
                uid: "e5", summary: "event 5", start: "20260301T090000Z", end: "20260301T100000Z",
                extra: ["LOCATION:Room 7"]
            ).utf8
        )
        .write(to: remoteFile)
        let merged = try await SyncEngine(local: local, remote: remote, journal: journal, policy: policy).run()
        #expect(merged.errors.isEmpty, "\(merged.errors)")
        for file in [localFile, remoteFile] {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(
                text.contains("SUMMARY:renamed here") && text.contains("LOCATION:Room 7"),
                "\(file.lastPathComponent): \(text)")
        }
    }

    /// Two folders holding mostly the same items (a takeover, through the streamed path: the
    /// remote folder hands its files over in batches), stopped after its k-th side effect for
    /// every k, then run again: both folders end with every UID once, equal, and a further
    /// run writes nothing. The item that differs with no journal row is kept twice (the
    /// server's copy under its UID, the local one as a conflict copy), whenever the stop came.
    @Test func everyInterruptionOfATakeoverConverges() async throws {
        func scenario(_ folder: TemporaryFolder) throws -> (VDirStorage, VDirStorage) {
            let (local, remote) = try folder.vdirPair()
            func put(_ storage: VDirStorage, _ name: String, _ text: String) throws {
                try Data(text.utf8).write(to: storage.directory.url.appendingPathComponent(name))
            }
            for i in 0..<40 {
                try put(
                    local, "e\(i).ics",
                    TestEvent.ics(
                        uid: "e\(i)", summary: "event \(i)", start: "20260301T090000Z", end: "20260301T100000Z"))
                try put(
                    remote, "copy-\(i).ics",
                    TestEvent.ics(
                        uid: "e\(i)", summary: "event \(i)", start: "20260301T090000Z",
                        end: "20260301T100000Z"))
            }
            try put(
                local, "diff.ics",
                TestEvent.ics(uid: "diff", summary: "local's", start: "20260301T090000Z", end: "20260301T100000Z"))
            try put(
                remote, "diff.ics",
                TestEvent.ics(
                    uid: "diff", summary: "server's", start: "20260301T090000Z", end: "20260301T100000Z",
                    extra: ["LAST-MODIFIED:20260101T000001Z"]))
            try put(
                local, "mine.ics",
                TestEvent.ics(uid: "mine", summary: "mine", start: "20260301T090000Z", end: "20260301T100000Z"))
            try put(
                remote, "theirs.ics",
                TestEvent.ics(uid: "theirs", summary: "theirs", start: "20260301T090000Z", end: "20260301T100000Z"))
            return (local, remote)
        }
        /// UID → how many files carry it, and UID → SUMMARY.
        func contents(_ storage: VDirStorage) throws -> (counts: [String: Int], summaries: [String: String]) {
            var counts: [String: Int] = [:], summaries: [String: String] = [:]
            for entry in try storage.directory.scan() {
                let lines = String(decoding: try #require(try storage.directory.read(entry.name)).data, as: UTF8.self)
                    .components(separatedBy: "\r\n")
                let uid = String(try #require(lines.first { $0.hasPrefix("UID:") }).dropFirst(4))
                counts[uid, default: 0] += 1
                summaries[uid] = lines.first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }
            }
            return (counts, summaries)
        }

        let campaign = VDirInterruptions(scenario: scenario)
        let total = try await campaign.effects()
        #expect(total > 40)

        for k in 1...total {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let (local, remote, journal, report) = try await campaign.interrupted(at: k, in: folder)
            #expect(report.errors.isEmpty, "k = \(k): \(report.errors)")
            let (lc, ls) = try contents(local), (rc, rs) = try contents(remote)
            #expect(
                lc.count == 44 && lc.values.allSatisfy { $0 == 1 }, "k = \(k): local \(lc.filter { $0.value != 1 })")
            #expect(
                rc.count == 44 && rc.values.allSatisfy { $0 == 1 }, "k = \(k): remote \(rc.filter { $0.value != 1 })")
            #expect(ls == rs, "k = \(k): the folders differ")
            #expect(ls["e39"] == "event 39" && ls["mine"] == "mine" && ls["theirs"] == "theirs", "k = \(k)")
            #expect(
                ls["diff"] == "server's" && ls.values.filter { $0 == "local's" }.count == 1,
                "k = \(k): both copies of diff")
            let again = try await SyncEngine(local: local, remote: remote, journal: journal).run()
            #expect(
                again.created.total + again.updated.total + again.deleted.total == 0 && again.errors.isEmpty,
                "k = \(k): \(again.summary)")
            #expect(try journal.pendingIntents().isEmpty, "k = \(k)")
        }
    }

    /// The scan of a first sync keeps no item's bytes from a vdir; it keeps them from a side
    /// that is not on this machine (reading a server twice would cost a second download).
    @Test func aFirstSyncKeepsNoBytesFromAVdir() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (local, remote) = try folder.vdirPair()
        for i in 0..<20 {
            try Data(
                TestEvent.ics(uid: "e\(i)", summary: "event \(i)", start: "20260301T090000Z", end: "20260301T100000Z")
                    .utf8
            )
            .write(to: local.directory.url.appendingPathComponent("e\(i).ics"))
        }
        let engine = SyncEngine(local: local, remote: remote, journal: try Journal.inMemory())
        let (_, _, bounded, _) = try await engine.plan(keepingBytes: false)
        #expect(bounded.items.count == 20)
        #expect(bounded.items.allSatisfy { $0.data == nil })
        let (_, _, kept, _) = try await engine.plan(keepingBytes: true)
        #expect(kept.items.allSatisfy { $0.data != nil })

        let report = try await engine.run()
        #expect(report.created[.remote] == 20, "\(report.summary)")
        let copied = try await remote.fetch(try remote.directory.scan().map { ItemHref($0.name) })
        #expect(copied.count == 20)
        #expect(copied.allSatisfy { String(decoding: $0.data, as: UTF8.self).contains("SUMMARY:event ") })
    }
}
