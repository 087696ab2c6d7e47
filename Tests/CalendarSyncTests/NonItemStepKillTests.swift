import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// The writes of a run that are not items (docs/architecture.md, "A few writes are not items")
/// are steps of their own: a run killed after any one of them, then run again, ends as a run
/// that was never killed, and a further run changes nothing.
@Suite struct NonItemStepKillTests {
    typealias Pair = VDirPairScenarioTests.Pair

    /// A hook that ends the run after its k-th side effect.
    static func killing(after k: Int) -> FaultHook { { n in if n >= k { throw RunInterrupted() } } }

    /// Two synced vdirs named alike; then the local calendar renamed, the remote one
    /// recoloured and one event edited, so the run writes an item and then the metadata.
    func renamedAndRecoloured() async throws -> Pair {
        let pair = try Pair()
        for folder in [pair.local.directory, pair.remote.directory] {
            try folder.setMetadata(.displayName, "Work")
            try folder.setMetadata(.color, "#ff0000")
        }
        try TestEvent.data(uid: "a", summary: "v1", duration: "PT1H").write(to: pair.folder.file("local/a.ics"))
        _ = try await pair.sync()
        try pair.local.directory.setMetadata(.displayName, "Office")
        try pair.remote.directory.setMetadata(.color, "#00ff00")
        try TestEvent.data(uid: "a", summary: "v2", duration: "PT1H").write(to: pair.folder.file("local/a.ics"))
        return pair
    }

    func expectAgreed(_ pair: Pair, k: Int) async throws {
        for folder in [pair.local.directory, pair.remote.directory] {
            #expect(folder.metadata(.displayName) == "Office", "k = \(k)")
            #expect(folder.metadata(.color) == "#00ff00", "k = \(k)")
        }
        #expect(
            String(decoding: try pair.files(pair.remote)["a.ics"] ?? Data(), as: UTF8.self).contains("SUMMARY:v2"),
            "k = \(k)")
        let again = try await pair.sync()
        #expect(again.notes.isEmpty && again.errors.isEmpty, "k = \(k): \(again.notes) \(again.errors)")
        #expect(again.created.total + again.updated.total + again.deleted.total == 0, "k = \(k)")
        #expect(try pair.journal.collection(.local).displayName == "Office", "k = \(k)")
    }

    /// How many side effects a run of `pair` has, running it to its end.
    func sideEffects(of pair: Pair) async throws -> Int {
        let count = Locked(0)
        _ = try await SyncEngine(
            local: pair.local, remote: pair.remote, journal: pair.journal,
            faultHook: { n in count.value = max(count.value, n) }
        ).run()
        return count.value
    }

    /// For each k up to `total`: `scenario`'s run killed after its k-th side effect, run again
    /// without errors, then checked by `expect`.
    func everyKill(
        upTo total: Int, of scenario: () async throws -> Pair,
        _ expect: (Pair, Int) async throws -> Void
    ) async throws {
        for k in 1...total {
            let pair = try await scenario()
            defer { pair.folder.remove() }
            await #expect(throws: RunInterrupted.self, "k = \(k)") {
                try await SyncEngine(
                    local: pair.local, remote: pair.remote, journal: pair.journal,
                    faultHook: Self.killing(after: k)
                ).run()
            }
            let report = try await pair.sync()
            #expect(report.errors.isEmpty, "k = \(k): \(report.errors)")
            try await expect(pair, k)
        }
    }

    @Test func aRunKilledAfterAnyMetadataWriteConverges() async throws {
        let counted = try await renamedAndRecoloured()
        defer { counted.folder.remove() }
        let total = try await sideEffects(of: counted)
        try await expectAgreed(counted, k: 0)
        // The item's intent, its write and its outcome, then the two sides' metadata and the
        // journal's agreed values: the last four steps are the metadata's.
        #expect(total >= 5, "\(total) side effects")
        try await everyKill(upTo: total, of: renamedAndRecoloured, expectAgreed)
    }

    /// Three events pulled by a run stopped before their outcomes, their files then left empty,
    /// cut short or never written, as a power loss leaves them: recovery removes them.
    func tornByPowerLoss() async throws -> Pair {
        let pair = try Pair()
        for uid in ["a", "b", "c"] {
            try TestEvent.data(uid: uid, summary: "event \(uid)", duration: "PT1H").write(
                to: pair.folder.file("remote/\(uid).ics"))
        }
        await #expect(throws: RunInterrupted.self) {
            try await SyncEngine(
                local: pair.local, remote: pair.remote, journal: pair.journal,
                faultHook: Self.killing(after: 4)
            ).run()
        }
        try Data().write(to: pair.folder.file("local/a.ics"))
        let b = TestEvent.data(uid: "b", summary: "event b", duration: "PT1H")
        try b.prefix(b.count / 2).write(to: pair.folder.file("local/b.ics"))
        try Data(count: 200).write(to: pair.folder.file("local/c.ics"))
        return pair
    }

    @Test func aRecoveryKilledAfterRemovingATornFileConverges() async throws {
        let counted = try await tornByPowerLoss()
        defer { counted.folder.remove() }
        let total = try await sideEffects(of: counted)
        #expect(total >= 3, "the three removals are side effects: \(total)")
        try await everyKill(upTo: total, of: tornByPowerLoss) { pair, k in
            let local = try pair.files(pair.local)
            #expect(local.keys.sorted() == ["a.ics", "b.ics", "c.ics"], "k = \(k): no second copy under another name")
            for (name, data) in local {
                let remote = try Data(contentsOf: pair.folder.file("remote/\(name)"))
                #expect(ContentHash.of(data) == ContentHash.of(remote), "k = \(k): \(name)")
            }
            #expect(try pair.journal.pendingIntents().isEmpty, "k = \(k)")
            let again = try await pair.sync()
            #expect(
                again.created.total + again.updated.total + again.deleted.total == 0 && again.errors.isEmpty, "k = \(k)"
            )
        }
    }
}
