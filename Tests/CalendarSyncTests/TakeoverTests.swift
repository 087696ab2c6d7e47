import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A first sync of two sides that already hold the same items (a folder another tool kept in
/// sync, or a copy of it): nothing is written on either side, every item is recorded with its
/// merge base, and the scans keep no item's bytes.
@Suite struct TakeoverTests {
    static let events = 300

    static func event(_ uid: String, summary: String, extra: [String] = []) -> String {
        TestEvent.ics(uid: uid, summary: summary, start: "20260301T090000Z", end: "20260301T100000Z", extra: extra)
    }

    @Test func twoEqualFoldersAreRecordedWithTheirBaseAndTheBaseServesALaterMerge() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = VDirStorage(url: folder.file("local")), remote = VDirStorage(url: folder.file("remote"))
        try local.directory.createIfMissing()
        try remote.directory.createIfMissing()
        for i in 0..<Self.events {
            let text = Data(Self.event("e\(i)", summary: "event \(i)").utf8)
            try text.write(to: local.directory.url.appendingPathComponent("e\(i).ics"))
            try text.write(to: remote.directory.url.appendingPathComponent("copy-\(i).ics"))
        }
        let journal = try Journal.open(at: folder.file("journal.sqlite"))
        var policy = SyncPolicy()
        policy.conflict = .merge
        let before = try local.directory.scan() + remote.directory.scan()

        let report = try await SyncEngine(local: local, remote: remote, journal: journal, policy: policy).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.created[.local] + report.created[.remote] + report.updated[.local] + report.updated[.remote] == 0,
                "\(report.summary)")
        #expect(try local.directory.scan() + remote.directory.scan() == before, "a file was written")
        let rows = try journal.items()
        #expect(rows.count == Self.events)
        for row in rows {
            let base = try journal.base(for: row.key) ?? Data()
            #expect(String(decoding: base, as: UTF8.self).contains("UID:\(row.key.value)"), "no merge base for \(row.key)")
        }

        // Each side edits a different property of one event: the base recorded by the
        // takeover lets the merge keep both edits.
        let localFile = local.directory.url.appendingPathComponent("e5.ics")
        let remoteFile = remote.directory.url.appendingPathComponent("copy-5.ics")
        try Data(Self.event("e5", summary: "renamed here").utf8).write(to: localFile)
        try Data(Self.event("e5", summary: "event 5", extra: ["LOCATION:Room 7"]).utf8).write(to: remoteFile)
        let merged = try await SyncEngine(local: local, remote: remote, journal: journal, policy: policy).run()
        #expect(merged.errors.isEmpty, "\(merged.errors)")
        for file in [localFile, remoteFile] {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("SUMMARY:renamed here") && text.contains("LOCATION:Room 7"), "\(file.lastPathComponent): \(text)")
        }
    }

    /// The scan of a first sync keeps no item's bytes from a vdir; it keeps them from a side
    /// that is not on this machine (reading a server twice would cost a second download).
    @Test func aFirstSyncKeepsNoBytesFromAVdir() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = VDirStorage(url: folder.file("local")), remote = VDirStorage(url: folder.file("remote"))
        try local.directory.createIfMissing()
        try remote.directory.createIfMissing()
        for i in 0..<20 {
            try Data(Self.event("e\(i)", summary: "event \(i)").utf8).write(to: local.directory.url.appendingPathComponent("e\(i).ics"))
        }
        let engine = SyncEngine(local: local, remote: remote, journal: try Journal.inMemory())
        let (_, _, bounded, _) = try await engine.plan(keepingBytes: false)
        #expect(bounded.items.count == 20)
        #expect(bounded.items.allSatisfy { $0.data == nil })
        let (_, _, kept, _) = try await engine.plan(keepingBytes: true)
        #expect(kept.items.allSatisfy { $0.data != nil })

        let report = try await engine.run()
        #expect(report.created[.remote] == 20, "\(report.summary)")
        let copied = try await remote.fetch(try remote.directory.scan().map(\.name))
        #expect(copied.count == 20)
        #expect(copied.allSatisfy { String(decoding: $0.data, as: UTF8.self).contains("SUMMARY:event ") })
    }
}
