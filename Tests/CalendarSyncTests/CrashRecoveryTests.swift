import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A run stopped after its k-th side effect, for every k, then run again: both sides end equal,
/// every edit present once, and a further run changes nothing.
@Suite struct CrashRecoveryTests {
    /// Synced a..g, then edits on both sides, including a conflict on g that merges.
    func scenario() async throws -> SyncHarness {
        let h = try SyncHarness()
        for uid in ["a", "b", "c", "d", "g"] {
            h.local.put(
                "\(uid).ics", TestEvent.data(uid: uid, summary: "v1", duration: "PT1H", extra: ["DESCRIPTION:d1"]))
        }
        try await h.sync()
        h.local.put(
            "a.ics", TestEvent.data(uid: "a", summary: "local edit", duration: "PT1H", extra: ["DESCRIPTION:d1"]))
        h.local.remove("b.ics")
        h.local.put("e.ics", TestEvent.data(uid: "e", summary: "new local", duration: "PT1H"))
        h.remote.put(
            "c.ics", TestEvent.data(uid: "c", summary: "remote edit", duration: "PT1H", extra: ["DESCRIPTION:d1"]))
        h.remote.remove("d.ics")
        h.remote.put("f.ics", TestEvent.data(uid: "f", summary: "new remote", duration: "PT1H"))
        h.local.put(
            "g.ics",
            TestEvent.data(
                uid: "g", summary: "g local title", duration: "PT1H", lastModified: "20260101T000000Z",
                extra: ["DESCRIPTION:d1"]))
        h.remote.put(
            "g.ics",
            TestEvent.data(
                uid: "g", summary: "v1", duration: "PT1H", lastModified: "20260101T000001Z",
                extra: ["DESCRIPTION:g remote text"]))
        return h
    }

    func expectConverged(_ h: SyncHarness, k: Int) async throws {
        #expect(h.converged(), "k = \(k)")
        #expect(
            h.summaries(.local) == [
                "a": "local edit", "c": "remote edit", "e": "new local", "f": "new remote", "g": "g local title",
            ],
            "k = \(k)")
        let g = String(decoding: h.items(.remote)["g"] ?? Data(), as: UTF8.self)
        #expect(g.contains("DESCRIPTION:g remote text"), "k = \(k): both edits of g survive")
        let writes = h.local.writeCount + h.remote.writeCount
        let again = try await h.sync()
        #expect(
            again.errors.isEmpty && again.created.total + again.updated.total + again.deleted.total == 0,
            "k = \(k): \(again)")
        #expect(h.local.writeCount + h.remote.writeCount == writes, "k = \(k)")
    }

    @Test func everyInterruptionConverges() async throws {
        // How many side effects an uninterrupted run has.
        var total = 0
        let counter = try await scenario()
        let count = Locked(0)
        _ = try await SyncEngine(
            local: counter.local, remote: counter.remote, journal: counter.journal,
            faultHook: { n in count.value = n }
        ).run()
        total = count.value
        try await expectConverged(counter, k: 0)
        #expect(total > 10)

        for k in 1...total {
            let h = try await scenario()
            await #expect(throws: RunInterrupted.self) { try await h.engine(faultAfter: k).run() }
            let report = try await h.sync()
            #expect(report.errors.isEmpty, "k = \(k): \(report.errors)")
            try await expectConverged(h, k: k)
            #expect(try h.journal.pendingIntents().isEmpty)
        }
    }

    @Test func failingWritesAreReportedAndRetriedNextRun() async throws {
        for op in [InMemoryStorage.Operation.create, .update, .delete] {
            let h = try await scenario()
            h.remote.failNext(op, count: 1)
            h.local.failNext(op, count: 1)
            let report = try await h.sync()
            #expect(!report.errors.isEmpty, "\(op)")
            try await h.sync()
            try await expectConverged(h, k: -1)
        }
    }

    /// A pull of 600 files into a vdir runs in three batches (128, 256, 216), each batch's flush
    /// and commit running behind the next ones' writes, two batches deep: stopped after any side
    /// effect, including between a later batch's writes and an earlier one's outcomes, the rerun
    /// converges.
    @Test func everyInterruptionBetweenOverlappingFlushesConverges() async throws {
        let count = 600
        func scenario(_ folder: TemporaryFolder) throws -> (VDirStorage, VDirStorage) {
            let (local, remote) = try folder.vdirPair()
            for i in 0..<count {
                try TestEvent.data(uid: "e\(i)", summary: "event \(i)", duration: "PT1H")
                    .write(to: remote.directory.url.appendingPathComponent("e\(i).ics"))
            }
            try TestEvent.data(uid: "mine", summary: "mine", duration: "PT1H").write(
                to: local.directory.url.appendingPathComponent("mine.ics"))
            return (local, remote)
        }
        func summaries(_ storage: VDirStorage) throws -> [String: [String]] {
            var found: [String: [String]] = [:]
            for entry in try storage.directory.scan() {
                let text = String(decoding: try #require(try storage.directory.read(entry.name)).data, as: UTF8.self)
                let lines = text.components(separatedBy: "\r\n")
                let uid = String(try #require(lines.first { $0.hasPrefix("UID:") }).dropFirst(4))
                found[uid, default: []].append(lines.first { $0.hasPrefix("SUMMARY:") } ?? "")
            }
            return found
        }

        let campaign = VDirInterruptions(scenario: scenario)
        let total = try await campaign.effects()
        #expect(total > count)

        // Every 25th effect, and every one around the first two batches' ends (128 and 384
        // writes) and the run's.
        let ks = (1...total).filter {
            $0 % 25 == 0 || (126...136).contains($0) || (382...394).contains($0) || $0 > total - 8
        }
        for k in ks {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let (local, remote, journal, report) = try await campaign.interrupted(at: k, in: folder)
            #expect(report.errors.isEmpty, "k = \(k): \(report.errors)")
            let l = try summaries(local), r = try summaries(remote)
            #expect(
                l.count == count + 1 && l.values.allSatisfy { $0.count == 1 },
                "k = \(k): local \(l.filter { $0.value.count != 1 })")
            #expect(l == r, "k = \(k): the folders differ")
            #expect(l["e\(count - 1)"] == ["SUMMARY:event \(count - 1)"] && l["mine"] == ["SUMMARY:mine"], "k = \(k)")
            #expect(try journal.items().count == count + 1, "k = \(k)")
            let again = try await SyncEngine(local: local, remote: remote, journal: journal).run()
            #expect(
                again.created.total + again.updated.total + again.deleted.total == 0 && again.errors.isEmpty,
                "k = \(k): \(again.summary)")
            #expect(try journal.pendingIntents().isEmpty, "k = \(k)")
        }
    }
}
