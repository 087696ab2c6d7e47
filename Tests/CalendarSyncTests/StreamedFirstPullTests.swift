import CalDAV
import Foundation
import GRDB
import Testing
import CalgwTestSupport
import CalgwTestTraits
@testable import CalendarSync

/// A pair's first sync with a server that streams its items (`SyncEngine.streamedFirstPull`):
/// remote items are written batch by batch while the answer arrives, and what the vdir holds
/// already is planned with them once the read ended, as a full run would. Radicale, filled
/// through its storage folder (it takes what it finds there), so that the server can hold what
/// no client could PUT: two items with one UID.
@Suite(.serialized, .needsServer("radicale"), .timeLimit(.minutes(10))) struct StreamedFirstPullTests {
    static let events = 700

    struct Pair {
        let folder: TemporaryFolder
        let local: VDirStorage
        let remote: CalDAVStorage
        let journal: Journal
        /// The collection's folder in Radicale's storage.
        let storage: URL

        init() async throws {
            let server = try TestServers.shared("radicale")
            folder = try TemporaryFolder()
            local = VDirStorage(url: folder.file("vdir"))
            try local.directory.createIfMissing()
            let client = try CalDAVClient(
                configuration: .init(
                    http: .init(authentication: .basic(username: server.username, password: server.password))))
            let url = server.newCollectionURL(prefix: "stream")
            try await client.makeCalendar(url)
            remote = CalDAVStorage(client: client, collection: url)
            journal = try Journal.open(at: folder.file("journal.sqlite"))
            storage = server.stateFolder.appendingPathComponent(
                "collections/collection-root/\(server.username)/\(url.lastPathComponent)")
            #expect(FileManager.default.fileExists(atPath: storage.path), "no Radicale folder at \(storage.path)")
        }

        func serverFile(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: storage.appendingPathComponent(name))
        }

        func localFile(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: local.directory.url.appendingPathComponent(name))
        }

        /// UID → SUMMARY of every vdir file, and how many files carry each UID.
        func vdir() throws -> (summaries: [String: String], counts: [String: Int]) {
            var summaries: [String: String] = [:], counts: [String: Int] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: local.directory.url.path)
            where name.hasSuffix(".ics") {
                let text = try String(contentsOf: local.directory.url.appendingPathComponent(name), encoding: .utf8)
                let lines = text.components(separatedBy: "\r\n")
                guard let uid = lines.first(where: { $0.hasPrefix("UID:") })?.dropFirst(4) else { continue }
                summaries[String(uid)] = lines.first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }
                counts[String(uid), default: 0] += 1
            }
            return (summaries, counts)
        }
    }

    @Test func aFirstSyncPullsInBatchesAndPlansWhatBothSidesHoldAfterTheRead() async throws {
        let pair = try await Pair()
        defer { pair.folder.remove() }
        for i in 0..<Self.events {
            try pair.serverFile(
                "s\(i).ics",
                TestEvent.ics(
                    uid: "s\(i)", summary: "server \(i)", start: "20260301T090000Z",
                    end: "20260301T100000Z"))
        }
        // Shared with the vdir: one equal, one different; and one the server lacks.
        try pair.serverFile(
            "shared-equal.ics",
            TestEvent.ics(
                uid: "shared-equal", summary: "same", start: "20260301T090000Z",
                end: "20260301T100000Z"))
        try pair.serverFile(
            "shared-diff.ics",
            TestEvent.ics(
                uid: "shared-diff", summary: "server's", start: "20260301T090000Z",
                end: "20260301T100000Z"))
        try pair.localFile(
            "a.ics",
            TestEvent.ics(uid: "shared-equal", summary: "same", start: "20260301T090000Z", end: "20260301T100000Z"))
        try pair.localFile(
            "b.ics",
            TestEvent.ics(uid: "shared-diff", summary: "local's", start: "20260301T090000Z", end: "20260301T100000Z"))
        try pair.localFile(
            "c.ics",
            TestEvent.ics(uid: "local-only", summary: "mine", start: "20260301T090000Z", end: "20260301T100000Z"))

        let recorder = ProgressRecorder()
        let engine = SyncEngine(
            local: pair.local, remote: pair.remote, journal: pair.journal,
            progress: { p in recorder.add(p) })
        let report = try await engine.run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        // shared-diff differs with no journal row: both copies are kept, the local one under a new UID.
        #expect(report.created[.local] == Self.events + 1)
        #expect(report.created[.remote] == 2)
        #expect(report.conflicts == [.init(uid: "shared-diff", resolution: .resolved(.keepBoth))])
        let (summaries, counts) = try pair.vdir()
        #expect(summaries.count == Self.events + 4)
        #expect(summaries["shared-diff"] == "server's" && summaries.values.filter { $0 == "local's" }.count == 1)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(summaries["s\(Self.events - 1)"] == "server \(Self.events - 1)")
        #expect(summaries["local-only"] == "mine")
        // The transfer's total grew as batches arrived (128, 256, ...), and finished complete.
        let seen = recorder.values
        let totals = Set(seen.map(\.total))
        #expect(totals.count > 2, "progress totals \(totals.sorted())")
        #expect(seen.last.map { $0.isComplete } == true)
        #expect(try pair.journal.items().count == Self.events + 4)
        // The pulled items' merge bases were packed by batch (`BasePack`), each read back whole.
        let packs = try await pair.journal.writer.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM basePack") ?? 0
        }
        #expect(packs >= Self.events / BasePack.members)
        for i in [0, Self.events / 2, Self.events - 1] {
            let base = try pair.journal.base(for: ItemKey("s\(i)")).map { String(decoding: $0, as: UTF8.self) }
            #expect(base?.contains("SUMMARY:server \(i)\r\n") == true, "\(base ?? "no base")")
        }

        let again = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(again.created[.local] + again.created[.remote] + again.updated[.local] + again.updated[.remote] == 0)
        #expect(again.errors.isEmpty && again.conflicts.isEmpty, "\(again.errors) \(again.conflicts)")
        let remoteItems = try await pair.remote.fetchAll().items
        #expect(remoteItems.count == Self.events + 4)
    }

    /// After a pull the journal keeps the token of the listing it records, so the next run with
    /// nothing changed reads no item; a file deleted or edited after the pull changes that
    /// listing, and the run after it carries both to the server.
    @Test func theTokenKeptAfterAPullVouchesForThePulledFilesOnly() async throws {
        let pair = try await Pair()
        defer { pair.folder.remove() }
        for i in 0..<200 {
            try pair.serverFile(
                "s\(i).ics",
                TestEvent.ics(
                    uid: "s\(i)", summary: "server \(i)", start: "20260301T090000Z",
                    end: "20260301T100000Z"))
        }
        let first = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(first.created[.local] == 200)
        let kept = try pair.journal.collection(.local).token
        guard case .unchanged = try await pair.local.changes(since: kept) else {
            Issue.record("the kept token \(String(describing: kept)) does not answer for the vdir as pulled")
            return
        }
        let quiet = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(quiet.created[.local] + quiet.created[.remote] + quiet.updated[.remote] + quiet.deleted[.remote] == 0)

        let files = try FileManager.default.contentsOfDirectory(atPath: pair.local.directory.url.path).filter {
            $0.hasSuffix(".ics")
        }.sorted()
        try FileManager.default.removeItem(at: pair.local.directory.url.appendingPathComponent(files[0]))
        let edited = pair.local.directory.url.appendingPathComponent(files[1])
        let text = try String(contentsOf: edited, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "SUMMARY:server", with: "SUMMARY:edited").utf8).write(to: edited)
        let after = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(after.deleted[.remote] == 1 && after.updated[.remote] == 1, "\(after.summary)")
        let remoteItems = try await pair.remote.fetchAll().items
        #expect(remoteItems.count == 199)
        #expect(remoteItems.filter { String(decoding: $0.data, as: UTF8.self).contains("SUMMARY:edited") }.count == 1)
    }

    /// A vdir another tool kept in sync (a takeover): what both sides hold equally is recorded
    /// as it streams in, with the server's copy as the merge base, and no file is written; the
    /// one item that differs is a conflict whose two copies are both kept (no base says which
    /// is the edit), the one the server lacks is uploaded.
    @Test func aTakeoverRecordsEqualItemsWithTheirBaseAndRewritesNoFile() async throws {
        let pair = try await Pair()
        defer { pair.folder.remove() }
        for i in 0..<Self.events {
            try pair.serverFile(
                "s\(i).ics",
                TestEvent.ics(uid: "s\(i)", summary: "server \(i)", start: "20260301T090000Z", end: "20260301T100000Z"))
            try pair.localFile(
                "local-\(i).ics",
                TestEvent.ics(
                    uid: "s\(i)", summary: "server \(i)", start: "20260301T090000Z",
                    end: "20260301T100000Z"))
        }
        try pair.serverFile(
            "shared-diff.ics",
            TestEvent.ics(
                uid: "shared-diff", summary: "server's", start: "20260301T090000Z",
                end: "20260301T100000Z"))
        try pair.localFile(
            "b.ics",
            TestEvent.ics(uid: "shared-diff", summary: "local's", start: "20260301T090000Z", end: "20260301T100000Z"))
        try pair.localFile(
            "c.ics",
            TestEvent.ics(uid: "local-only", summary: "mine", start: "20260301T090000Z", end: "20260301T100000Z"))
        let before = try pair.local.directory.scan()

        let report = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.created[.local] == 1 && report.updated[.local] <= 1, "\(report.summary)")
        #expect(report.created[.remote] == 2)
        #expect(report.conflicts == [.init(uid: "shared-diff", resolution: .resolved(.keepBoth))])
        // The equal files were left as they were: same names, same signatures.
        let after = Dictionary(
            try pair.local.directory.scan().map { ($0.name, $0.signature) }, uniquingKeysWith: { a, _ in a })
        for entry in before where entry.name.hasPrefix("local-") {
            #expect(after[entry.name] == entry.signature, "\(entry.name) was rewritten")
        }
        let rows = try pair.journal.items()
        #expect(rows.count == Self.events + 3)
        #expect(Set(rows.map(\.local.href)).isSuperset(of: (0..<Self.events).map { "local-\($0).ics" }))
        for key in [ItemKey.uid("s0"), .uid("s\(Self.events - 1)")] {
            let base = try pair.journal.base(for: key).map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(base.contains("SUMMARY:server"), "no merge base recorded for \(key)")
        }

        let again = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(
            again.created[.local] + again.created[.remote] + again.updated[.local] + again.updated[.remote] == 0,
            "\(again.summary)")
        #expect(again.errors.isEmpty && again.conflicts.isEmpty, "\(again.errors) \(again.conflicts)")
    }

    /// A server's copy with the bytes of a local file (LF or CRLF line ends alike) is taken as
    /// what that file is, without parsing it again: the journal then holds what parsing it
    /// would have given, and so does a copy whose bytes differ (its lines in another order).
    /// The vdir is the one a first pull wrote (the server's bytes), taken over with a new journal.
    @Test func aTakeoverKnowsACopyByItsBytesAsParsingWould() async throws {
        let pair = try await Pair()
        defer { pair.folder.remove() }
        let count = 300
        for i in 0..<count {
            try pair.serverFile(
                "b\(i).ics",
                TestEvent.ics(
                    uid: "b\(i)", summary: "caf\u{E9} \(i)", start: "20260301T090000Z",
                    end: "20260301T100000Z", extra: ["RRULE:FREQ=WEEKLY;UNTIL=20270301T090000Z"]))
        }
        let pulled = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(pulled.created[.local] == count && pulled.errors.isEmpty, "\(pulled.summary)")
        // Every other file with LF line ends, as some tools write them; every tenth with its
        // DTSTAMP last (the same content, other bytes).
        let folder = pair.local.directory.url
        for (i, name) in try FileManager.default.contentsOfDirectory(atPath: folder.path).filter({
            $0.hasSuffix(".ics")
        }).sorted().enumerated() {
            let url = folder.appendingPathComponent(name)
            var text = try String(contentsOf: url, encoding: .utf8)
            if i % 2 == 0 { text = text.replacingOccurrences(of: "\r\n", with: "\n") }
            if i % 10 == 0, let stamp = text.range(of: "DTSTAMP:[0-9TZ]+\r?\n", options: .regularExpression) {
                let line = String(text[stamp])
                text.removeSubrange(stamp)
                text = text.replacingOccurrences(of: "END:VEVENT", with: line + "END:VEVENT")
            }
            try Data(text.utf8).write(to: url)
        }

        let journal = try Journal.open(at: pair.folder.file("takeover.sqlite"))
        let report = try await SyncEngine(local: pair.local, remote: pair.remote, journal: journal).run()
        #expect(report.errors.isEmpty && report.conflicts.isEmpty, "\(report.errors) \(report.conflicts)")
        #expect(
            report.created[.local] + report.created[.remote] + report.updated[.local] + report.updated[.remote] == 0,
            "\(report.summary)")
        let rows = try journal.items()
        #expect(rows.count == count)
        let served = try await pair.remote.fetch(rows.map(\.remote.href))
        let byHref = Dictionary(served.map { ($0.href, $0.data) }, uniquingKeysWith: { a, _ in a })
        for row in rows {
            let data = try #require(byHref[row.remote.href], "\(row.remote.href) not served")
            let parsed = ItemContent(data)
            #expect(row.remote.hash == parsed.hash && row.local.hash == parsed.hash, "\(row.key)")
            #expect(row.key == parsed.key && row.span == parsed.span && row.sequence == parsed.sequence, "\(row.key)")
        }
    }

    /// A UID the server holds twice, one copy equal to the vdir's file: the run reports it and
    /// neither overwrites the file nor pulls the copy.
    @Test func aTakeoverWithAUIDTheServerHoldsTwiceKeepsTheFile() async throws {
        let pair = try await Pair()
        defer { pair.folder.remove() }
        for i in 0..<Self.events {
            try pair.serverFile(
                "s\(i).ics",
                TestEvent.ics(
                    uid: "s\(i)", summary: "server \(i)", start: "20260301T090000Z",
                    end: "20260301T100000Z"))
        }
        try pair.localFile(
            "mine.ics",
            TestEvent.ics(uid: "s3", summary: "server 3", start: "20260301T090000Z", end: "20260301T100000Z"))
        try pair.serverFile(
            "zz-copy.ics",
            TestEvent.ics(uid: "s3", summary: "copy of 3", start: "20260301T090000Z", end: "20260301T100000Z"))

        let report = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(report.errors.lines.contains { $0.contains("UID s3") }, "\(report.errors)")
        let (summaries, counts) = try pair.vdir()
        #expect(counts["s3"] == 1)
        #expect(summaries["s3"] == "server 3")
        #expect(summaries.count == Self.events)
    }

    /// Two vdir files with one UID the server holds too: neither is matched with the server's
    /// item while it streams in, nor overwritten; the run reports the UID, and the rest is
    /// recorded as equal.
    @Test func aTakeoverWithAUIDTwoFilesShareOverwritesNeither() async throws {
        let pair = try await Pair()
        defer { pair.folder.remove() }
        for i in 0..<Self.events {
            try pair.serverFile(
                "s\(i).ics",
                TestEvent.ics(uid: "s\(i)", summary: "server \(i)", start: "20260301T090000Z", end: "20260301T100000Z"))
            if i != 3 {
                try pair.localFile(
                    "s\(i).ics",
                    TestEvent.ics(
                        uid: "s\(i)", summary: "server \(i)", start: "20260301T090000Z",
                        end: "20260301T100000Z"))
            }
        }
        try pair.localFile(
            "mine-a.ics",
            TestEvent.ics(uid: "s3", summary: "server 3", start: "20260301T090000Z", end: "20260301T100000Z"))
        try pair.localFile(
            "mine-b.ics",
            TestEvent.ics(uid: "s3", summary: "my copy of 3", start: "20260301T090000Z", end: "20260301T100000Z"))

        let report = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(report.errors.lines.contains { $0.contains("s3") }, "\(report.errors)")
        #expect(report.created[.local] == 0 && report.updated[.local] == 0, "\(report.summary)")
        let (summaries, counts) = try pair.vdir()
        #expect(counts["s3"] == 2)
        #expect(summaries.count == Self.events)
        let text = { (name: String) in
            try String(contentsOf: pair.local.directory.url.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(
            try text("mine-a.ics").contains("SUMMARY:server 3") && text("mine-b.ics").contains("SUMMARY:my copy of 3"))
        #expect(try pair.journal.items().count == Self.events - 1)
    }

    @Test func aUIDTheServerHoldsTwiceIsAnErrorAndAtMostOneCopyIsPulled() async throws {
        let pair = try await Pair()
        defer { pair.folder.remove() }
        for i in 0..<Self.events {
            try pair.serverFile(
                "s\(i).ics",
                TestEvent.ics(
                    uid: "s\(i)", summary: "server \(i)", start: "20260301T090000Z",
                    end: "20260301T100000Z"))
        }
        // Far apart, so in any order the server lists them they are likely in different batches.
        try pair.serverFile(
            "zz-copy.ics",
            TestEvent.ics(uid: "s3", summary: "copy of 3", start: "20260301T090000Z", end: "20260301T100000Z"))

        let report = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(report.errors.lines.contains { $0.contains("UID s3") }, "\(report.errors)")
        // The error names both copies, in one batch or in two (the first then as the journal
        // recorded it).
        #expect(
            report.errors.lines.contains {
                $0.contains("UID s3") && $0.contains("/s3.ics") && $0.contains("/zz-copy.ics")
            },
            "\(report.errors)")
        let (summaries, counts) = try pair.vdir()
        #expect((counts["s3"] ?? 0) <= 1)
        #expect(summaries.count >= Self.events - 1)
        #expect(summaries["s\(Self.events - 1)"] == "server \(Self.events - 1)")
        // The run had an error: the journal's token does not vouch for the server, and the
        // next run reports the same error without pulling anything twice.
        let again = try await SyncEngine(local: pair.local, remote: pair.remote, journal: pair.journal).run()
        #expect(again.errors.lines.contains { $0.contains("UID s3") }, "\(again.errors)")
        #expect(try pair.vdir().counts.values.allSatisfy { $0 == 1 })
    }
}

/// Collects progress values from any task.
private final class ProgressRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [SyncProgress] = []
    func add(_ p: SyncProgress) { lock.withLock { recorded.append(p) } }
    var values: [SyncProgress] { lock.withLock { recorded } }
}
