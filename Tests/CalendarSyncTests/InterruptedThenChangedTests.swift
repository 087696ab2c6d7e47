import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A run stopped after its k-th side effect, for every k; then the side it copied from changes
/// (deletions, edits, new items) before the next run. The outcome must be the one of a run
/// that was never stopped followed by the same changes: nothing deleted comes back, no edit is
/// undone, nothing is lost or doubled. A stop that only reruns checks convergence; this checks
/// that the rerun converges on the right answer.
@Suite struct InterruptedThenChangedTests {
    /// A scenario: how the sides start, and what happens on the source side after the stop.
    struct Shape: Sendable {
        var name: String
        /// The side the interrupted run copies from, which changes after it.
        var source: Side
        var setUp: @Sendable (SyncHarness) async throws -> Void
        /// UIDs to delete and to edit on `source` after the stop (those present there).
        var deleted: [String]
        var edited: [String]
        var added: [String] = ["n0", "n1"]
    }

    static func events(_ uids: [String], on storage: InMemoryStorage, summary: String = "v1") {
        for uid in uids { storage.put("\(uid).ics", TestEvent.data(uid: uid, summary: summary, duration: "PT1H")) }
    }

    static let later = (0..<30).map { "e\($0)" }
    static let known = (0..<6).map { "a\($0)" }

    static let shapes: [Shape] = [
        Shape(
            name: "first pull", source: .remote, setUp: { h in events(later, on: h.remote) },
            deleted: (0..<10).map { "e\($0)" }, edited: (10..<20).map { "e\($0)" }),
        Shape(
            name: "first push", source: .local, setUp: { h in events(later, on: h.local) },
            deleted: (0..<10).map { "e\($0)" }, edited: (10..<20).map { "e\($0)" }),
        later("later pull", from: .remote),
        later("later push", from: .local),
        Shape(
            name: "first sync of two full sides", source: .remote,
            setUp: { h in
                events(later, on: h.remote)
                events(Array(later.prefix(10)), on: h.local)
                events(["mine0", "mine1"], on: h.local)
            }, deleted: ["e0", "e15", "e29"], edited: ["e1", "e16", "e28"]),
    ]

    /// A run after a first sync: `source` has new items, edits and a deletion to copy.
    static func later(_ name: String, from source: Side) -> Shape {
        Shape(
            name: name, source: source,
            setUp: { h in
                events(known, on: h.storage(source))
                try await h.sync()
                events(later, on: h.storage(source))
                events(["a0", "a1"], on: h.storage(source), summary: "v2")
                h.storage(source).remove("a2.ics")
            }, deleted: ["e0", "e5", "e29", "a0", "a3"], edited: ["e1", "e6", "e28", "a1", "a4"])
    }

    /// The source side's changes after the stop, by UID (wherever the item's file is).
    static func change(_ h: SyncHarness, _ shape: Shape) {
        let storage = h.storage(shape.source)
        let hrefs = Dictionary(
            storage.contents.map { (ItemContent($0.value).key.value, $0.key) }, uniquingKeysWith: { a, _ in a })
        for uid in shape.deleted { if let href = hrefs[uid] { storage.remove(href) } }
        for uid in shape.edited {
            if let href = hrefs[uid] {
                storage.put(href, TestEvent.data(uid: uid, summary: "edited after the stop", duration: "PT1H"))
            }
        }
        events(shape.added, on: storage, summary: "new after the stop")
    }

    @Test(arguments: shapes.map(\.name))
    func aStoppedRunThenChangesOnTheSourceEndAsAnUnstoppedOne(shape name: String) async throws {
        let shape = try #require(Self.shapes.first { $0.name == name })
        // The reference: the run not stopped, then the same changes, then a run.
        let reference = try SyncHarness()
        try await shape.setUp(reference)
        let count = Locked(0)
        _ = try await SyncEngine(
            local: reference.local, remote: reference.remote, journal: reference.journal,
            faultHook: { n in count.value = n }
        ).run()
        Self.change(reference, shape)
        try await reference.sync()
        let expected = reference.summaries(.local)
        #expect(reference.summaries(.remote) == expected)
        for uid in shape.deleted { #expect(expected[uid] == nil, "\(uid) deleted") }
        for uid in shape.edited { #expect(expected[uid] == "edited after the stop", "\(uid) edited") }
        #expect(count.value > 10)

        for k in 1...count.value {
            let h = try SyncHarness()
            try await shape.setUp(h)
            await #expect(throws: RunInterrupted.self) { try await h.engine(faultAfter: k).run() }
            Self.change(h, shape)
            let report = try await h.sync()
            #expect(report.errors.isEmpty, "\(name) k = \(k): \(report.errors)")
            let local = h.summaries(.local), remote = h.summaries(.remote)
            let back = shape.deleted.filter { local[$0] != nil || remote[$0] != nil }
            let undone = shape.edited.filter { local[$0] != expected[$0] || remote[$0] != expected[$0] }
            #expect(back.isEmpty, "\(name) k = \(k): deleted items came back: \(back)")
            #expect(undone.isEmpty, "\(name) k = \(k): edits undone: \(undone)")
            #expect(local == expected && remote == expected, "\(name) k = \(k)")
            #expect(h.converged(), "\(name) k = \(k): each UID once, both sides equal")
            #expect(try h.journal.pendingIntents().isEmpty, "\(name) k = \(k)")
        }
    }

    /// The streamed first pull (a server's items written to the vdir batch by batch as they
    /// arrive), stopped after each batch boundary and at its end, then 1 in 4 of the server's
    /// items deleted and 1 in 4 edited: none comes back, no edit is undone.
    @Test func aStoppedStreamedFirstPullThenServerChanges() async throws {
        let count = 600
        func scenario(_ folder: TemporaryFolder) throws -> (VDirStorage, VDirStorage) {
            let (local, remote) = try folder.vdirPair()
            for i in 0..<count {
                try TestEvent.data(uid: "e\(i)", summary: "event \(i)", duration: "PT1H")
                    .write(to: remote.directory.url.appendingPathComponent("e\(i).ics"))
            }
            return (local, remote)
        }
        func summaries(_ storage: VDirStorage) throws -> [String: String] {
            var found: [String: String] = [:]
            for entry in try storage.directory.scan() {
                let content = ItemContent(try #require(try storage.directory.read(entry.name)).data)
                let text = String(decoding: try #require(try storage.directory.read(entry.name)).data, as: UTF8.self)
                #expect(found[content.key.value] == nil, "\(content.key.value) twice")
                found[content.key.value] = text.components(separatedBy: "\r\n").first { $0.hasPrefix("SUMMARY:") }
            }
            return found
        }
        let campaign = VDirInterruptions(scenario: scenario)
        let total = try await campaign.effects()
        let ks = (1...total).filter {
            $0 % 97 == 0 || (127...131).contains($0) || (383...387).contains($0) || $0 > total - 4
        }
        for k in ks {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let (local, remote) = try scenario(folder)
            let journalURL = folder.file("j.sqlite")
            await #expect(throws: RunInterrupted.self) {
                try await SyncEngine(
                    local: local, remote: remote, journal: try Journal.open(at: journalURL),
                    faultHook: { n in if n >= k { throw RunInterrupted() } }
                ).run()
            }
            for i in stride(from: 0, to: count, by: 4) {
                try FileManager.default.removeItem(at: remote.directory.url.appendingPathComponent("e\(i).ics"))
                try TestEvent.data(uid: "e\(i + 1)", summary: "edited \(i + 1)", duration: "PT1H")
                    .write(to: remote.directory.url.appendingPathComponent("e\(i + 1).ics"))
            }
            let report = try await SyncEngine(local: local, remote: remote, journal: try Journal.open(at: journalURL))
                .run()
            #expect(report.errors.isEmpty, "k = \(k): \(report.errors)")
            let l = try summaries(local), r = try summaries(remote)
            let back = stride(from: 0, to: count, by: 4).filter { l["e\($0)"] != nil || r["e\($0)"] != nil }
            let undone = stride(from: 1, to: count, by: 4).filter { l["e\($0)"] != "SUMMARY:edited \($0)" }
            #expect(back.isEmpty, "k = \(k) of \(total): \(back.count) deleted items came back")
            #expect(undone.isEmpty, "k = \(k) of \(total): \(undone.count) edits undone")
            #expect(l == r && l.count == count - count / 4, "k = \(k) of \(total)")
        }
    }

    /// A stop asked for (SIGINT, SIGTERM in the command) ends the run at the next safe point:
    /// the batch in flight is finished and recorded, no intent is left pending, and the next run
    /// carries on without writing anything twice.
    @Test func aRunAskedToStopEndsAtASafePointWithEverythingRecorded() async throws {
        let h = try SyncHarness()
        Self.events((0..<300).map { "e\($0)" }, on: h.remote)
        let gate = StopGate()
        var engine = h.engine()
        engine.faultHook = { n in if n == 40 { gate.request("test") } }
        engine.stop = gate
        await #expect(throws: RunStopped(reason: "test")) { try await engine.run() }
        #expect(gate.closeIfIdle(), "no write is in flight once the run has stopped")
        // The first batch (128 writes) was under way when the stop was asked (after its intents
        // and 39 writes): the writes in flight ended, the others were not begun.
        let written = h.local.contents.count
        #expect(written >= 39 && written < Executor.batchSize, "\(written) written")
        #expect(try h.journal.pendingIntents().isEmpty)
        #expect(try h.journal.items().count == written)
        let writes = h.local.writeCount
        let report = try await h.sync()
        #expect(report.created.local == 300 - written && report.errors.isEmpty)
        #expect(h.local.writeCount == writes + 300 - written, "nothing written twice")
        #expect(h.converged())
    }

    /// Two copies that meet with no journal row and differ are both kept, whatever their
    /// LAST-MODIFIED says: the local one may be a stale copy of what the server had.
    @Test func copiesWithoutSharedHistoryAreBothKept() async throws {
        for strategy in [ConflictStrategy.merge, .newest] {
            let h = try SyncHarness()
            h.local.put(
                "t1.ics",
                TestEvent.data(uid: "t1", summary: "stale", duration: "PT1H", lastModified: "20300101T000000Z"))
            h.remote.put(
                "t1.ics",
                TestEvent.data(
                    uid: "t1", summary: "edited on the phone", duration: "PT1H", lastModified: "20260101T000000Z"))
            let report = try await h.sync(SyncPolicy(direction: .both, conflict: strategy))
            #expect(report.conflicts.map(\.resolution) == [.resolved(.keepBoth)], "\(strategy)")
            let local = h.summaries(.local)
            #expect(local["t1"] == "edited on the phone", "\(strategy): the server's edit stays")
            #expect(
                local.values.sorted() == ["edited on the phone", "stale"], "\(strategy): the local copy is kept too")
            #expect(h.converged(), "\(strategy)")
        }
        // A strategy that names a side still decides.
        let h = try SyncHarness()
        h.local.put("t1.ics", TestEvent.data(uid: "t1", summary: "mine", duration: "PT1H"))
        h.remote.put("t1.ics", TestEvent.data(uid: "t1", summary: "theirs", duration: "PT1H"))
        try await h.sync(SyncPolicy(direction: .both, conflict: .localWins))
        #expect(h.summaries(.remote) == ["t1": "mine"])
    }
}
