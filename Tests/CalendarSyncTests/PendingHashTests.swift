import CalDAV
import Foundation
import GRDB
import Testing
import CalgwTestSupport
import CalgwTestTraits
@testable import CalendarSync

/// A first pull into an empty folder records each item with a pending hash (an identity of the
/// bytes copied) and makes the hash proper from the merge base only when a side of the item is
/// read again. These tests hold every later run to what it did when every hash was made at
/// once: a file only touched, or written again with other bytes of the same meaning, or a
/// server's new etag for the same content, is no edit; an edit, a deletion, an edit on each
/// side are what they were. Radicale, filled through its storage folder before the pull.
@Suite(.needsServer("radicale"), .timeLimit(.minutes(10))) struct PendingHashTests {
    typealias Pair = StreamedFirstPullTests.Pair

    /// A pair whose server holds `count` events `p0`… and whose empty vdir pulled them.
    static func pulledPair(_ count: Int = 12) async throws -> Pair {
        let pair = try await Pair()
        for i in 0..<count {
            try pair.serverFile(
                "p\(i).ics",
                TestEvent.ics(uid: "p\(i)", summary: "event \(i)", start: "20260301T090000Z", end: "20260301T100000Z"))
        }
        let first = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(first.created[.local] == count && first.errors.isEmpty, "\(first.summary) \(first.errors)")
        return pair
    }

    /// The vdir file of `uid`.
    static func file(_ pair: Pair, _ uid: String) throws -> URL {
        let folder = pair.local.directory.url
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".ics") {
            let url = folder.appendingPathComponent(name)
            let lines = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline)
            if lines.contains("UID:\(uid)") { return url }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: uid])
    }

    /// The server's items by UID: href, etag and text.
    static func server(_ pair: Pair) async throws -> [String: (href: ItemHref, etag: ItemETag, text: String)] {
        var found: [String: (href: ItemHref, etag: ItemETag, text: String)] = [:]
        for item in try await pair.remote.fetchAll().items {
            let text = String(decoding: item.data, as: UTF8.self)
            let uid = text.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }.map {
                String($0.dropFirst(4))
            }
            if let uid { found[uid] = (item.href, item.etag, text) }
        }
        return found
    }

    static func writes(_ report: SyncReport) -> Int {
        report.created.total + report.updated.total + report.deleted.total
    }

    @Test func aFirstPullIntoAnEmptyFolderRecordsPendingHashesWithTheBytesAsBase() async throws {
        let pair = try await Self.pulledPair()
        defer { pair.folder.remove() }
        let rows = try pair.journal.items()
        #expect(rows.count == 12)
        for row in rows {
            #expect(row.local.hash.isPending && row.remote.hash == row.local.hash, "\(row.key): \(row.local.hash)")
            let base = try #require(try pair.journal.base(for: row.key))
            #expect(row.local.hash.describes(base))
            #expect(ContentHash.pending(for: try Data(contentsOf: Self.file(pair, row.key.value))) == row.local.hash)
        }
        let again = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(Self.writes(again) == 0 && again.conflicts.isEmpty, "\(again.summary)")
    }

    /// Every kind of change after the pull, in one run, as the hashes proper would plan them.
    @Test func aSideReadAgainIsComparedByTheHashItsBaseMakes() async throws {
        let pair = try await Self.pulledPair()
        defer { pair.folder.remove() }
        let server = try await Self.server(pair)
        func rewrite(_ uid: String, _ change: (String) -> String) throws {
            let url = try Self.file(pair, uid)
            try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
        }
        func put(_ uid: String, _ change: (String) -> String) async throws {
            let item = try #require(server[uid])
            _ = try await pair.remote.update(
                href: item.href, data: Data(change(item.text).utf8), ifMatch: item.etag, as: .copy)
        }
        // p0 touched (the same bytes written again), p1 written with LF line ends, p2 edited.
        try rewrite("p0") { $0 }
        try rewrite("p1") { $0.replacingOccurrences(of: "\r\n", with: "\n") }
        try rewrite("p2") { $0.replacingOccurrences(of: "SUMMARY:event 2", with: "SUMMARY:edited here") }
        // p3 stamped anew on the server (same meaning), p4 edited there.
        try await put("p3") {
            $0.replacingOccurrences(of: "DTSTAMP:20260101T000000Z", with: "DTSTAMP:20261201T120000Z")
        }
        try await put("p4") { $0.replacingOccurrences(of: "SUMMARY:event 4", with: "SUMMARY:edited there") }
        // p5 edited on both sides, apart: merged from the base.
        try rewrite("p5") { $0.replacingOccurrences(of: "END:VEVENT", with: "DESCRIPTION:mine\r\nEND:VEVENT") }
        try await put("p5") { $0.replacingOccurrences(of: "END:VEVENT", with: "LOCATION:theirs\r\nEND:VEVENT") }
        // p6 touched here and deleted there; p7 deleted here.
        try rewrite("p6") { $0 }
        try await pair.remote.delete(href: server["p6"]!.href, ifMatch: server["p6"]!.etag, as: .copy)
        try FileManager.default.removeItem(at: try Self.file(pair, "p7"))
        let p1Bytes = try Data(contentsOf: try Self.file(pair, "p1"))
        let p3Bytes = try Data(contentsOf: try Self.file(pair, "p3"))

        let report = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.conflicts == [.init(uid: "p5", resolution: .resolved(.merge))], "\(report.conflicts)")
        #expect(report.deleted[.local] == 1 && report.deleted[.remote] == 1, "\(report.summary)")
        #expect(report.created.total == 0, "\(report.summary)")
        // p2 and p5 up, p4 and p5 down: no write for p0, p1, p3.
        #expect(report.updated[.remote] == 2 && report.updated[.local] == 2, "\(report.summary)")

        let after = try await Self.server(pair)
        #expect(after["p0"]?.etag == server["p0"]?.etag, "a touched file was uploaded")
        #expect(after["p1"]?.etag == server["p1"]?.etag, "a file of other line ends was uploaded")
        #expect(after["p2"]?.text.contains("SUMMARY:edited here") == true)
        #expect(try Data(contentsOf: try Self.file(pair, "p1")) == p1Bytes)
        #expect(try Data(contentsOf: try Self.file(pair, "p3")) == p3Bytes, "a restamped item was pulled again")
        #expect(try String(contentsOf: try Self.file(pair, "p4"), encoding: .utf8).contains("SUMMARY:edited there"))
        let merged = try String(contentsOf: try Self.file(pair, "p5"), encoding: .utf8)
        #expect(merged.contains("DESCRIPTION:mine") && merged.contains("LOCATION:theirs"), "\(merged)")
        #expect(after["p5"].map { $0.text.contains("DESCRIPTION:mine") && $0.text.contains("LOCATION:theirs") } == true)
        #expect((try? Self.file(pair, "p6")) == nil, "a touched file deleted on the server came back")
        #expect(after["p6"] == nil && after["p7"] == nil)

        // The rows of the items read again hold hashes proper; the others are still pending.
        let rows = Dictionary(uniqueKeysWithValues: try pair.journal.items().map { ($0.key.value, $0) })
        for uid in ["p0", "p1", "p2", "p4", "p5"] {
            #expect(rows[uid].map { !$0.local.hash.isPending && !$0.remote.hash.isPending } == true, "\(uid)")
        }
        for uid in ["p8", "p9", "p10", "p11"] { #expect(rows[uid]?.local.hash.isPending == true, "\(uid)") }
        let again = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(Self.writes(again) == 0 && again.conflicts.isEmpty, "\(again.summary)")
    }

    /// The plan from every row (a pair with a window takes it) and `status` without the server
    /// make the same hashes proper.
    @Test func thePlanFromEveryRowAndTheLocalStatusSeeNoEditInATouch() async throws {
        let pair = try await Self.pulledPair()
        defer { pair.folder.remove() }
        for uid in ["p0", "p1"] {
            let url = try Self.file(pair, uid)
            try Data(contentsOf: url).write(to: url)
        }
        try Data(
            String(contentsOf: try Self.file(pair, "p2"), encoding: .utf8)
                .replacingOccurrences(of: "SUMMARY:event 2", with: "SUMMARY:edited").utf8
        ).write(to: try Self.file(pair, "p2"))
        let status = try await SyncSession.localStatus(
            journalAt: pair.folder.file("journal.sqlite"), local: pair.local, policy: SyncPolicy())
        #expect(status.pending.updated[.remote] == 1 && Self.writes(status.pending) == 1, "\(status.pending.summary)")

        var engine = SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal)
        engine.plansFromChanges = false
        let report = try await engine.run()
        #expect(report.updated[.remote] == 1 && Self.writes(report) == 1, "\(report.summary)")
        #expect(try await Self.server(pair)["p2"]?.text.contains("SUMMARY:edited") == true)
    }

    /// A first pull stopped at any of its writes converges when run again, each item pulled
    /// once; a file the stopped run wrote and the person edited before the rerun is kept.
    @Test(arguments: [2, 5, 9]) func anInterruptedPullConvergesWithPendingHashes(stopAt: Int) async throws {
        let pair = try await Pair()
        defer { pair.folder.remove() }
        for i in 0..<12 {
            try pair.serverFile(
                "p\(i).ics",
                TestEvent.ics(uid: "p\(i)", summary: "event \(i)", start: "20260301T090000Z", end: "20260301T100000Z"))
        }
        let stopped = SyncEngine(
            local: pair.local, remote: pair.remote, journal: pair.journal,
            faultHook: { n in if n == stopAt { throw RunInterrupted() } })
        await #expect(throws: RunInterrupted.self) { try await stopped.run() }
        let written = try FileManager.default.contentsOfDirectory(atPath: pair.local.directory.url.path)
            .filter { $0.hasSuffix(".ics") }.sorted()
        var edited: String?
        if let name = written.first {
            let url = pair.local.directory.url.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "SUMMARY:", with: "SUMMARY:kept ").utf8).write(to: url)
            edited = text.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }

        let rerun = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(rerun.errors.isEmpty, "\(rerun.errors)")
        if written.count > 1 {
            // The files written and not edited are told by their pending hashes as landed.
            let outcomes = try await pair.journal.writer.read {
                try String.fetchAll($0, sql: "SELECT outcome FROM intent WHERE state = 'recovered'")
            }
            let landed = outcomes.contains {
                $0 == "landed" || $0.range(of: #"(^|, |: )[0-9]+ landed"#, options: .regularExpression) != nil
            }
            #expect(landed, "no write of the stopped run was found landed: \(outcomes)")
        }
        let again = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(Self.writes(again) == 0 && again.conflicts.isEmpty, "\(again.summary)")
        let (summaries, counts) = try pair.vdir()
        for i in 0..<12 { #expect(summaries["p\(i)"] != nil, "p\(i) missing after the rerun") }
        #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts)")
        if let edited {
            // The edit is in the vdir, under its UID or a kept copy's, and the server has it too.
            let everywhere = summaries.values.filter { $0.hasPrefix("kept ") }
            #expect(everywhere.count == 1, "the edit of \(edited) was lost: \(summaries)")
            let server = try await Self.server(pair)
            #expect(server.values.contains { $0.text.contains("SUMMARY:kept ") }, "the edit did not reach the server")
        }
    }
}
