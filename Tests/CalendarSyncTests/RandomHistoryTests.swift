import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// Random edits, renames and deletions on both sides, syncs that fail part-way, conflicts under every strategy but
/// `ask`, runs stopped part-way, pull, push and a sync window: after a final clean sync both sides are equal, no UID appears twice, and one more
/// sync writes nothing. The seed is in the failure message.
@Suite struct RandomHistoryTests {
    @Test(arguments: 1...200)
    func randomHistoryConverges(seed: UInt64) async throws {
        var rng = SeededRandom(seed: seed)
        let h = try SyncHarness(deltas: seed % 2 == 0)
        let strategies: [ConflictStrategy] = [.merge, .newest, .localWins, .remoteWins, .keepBoth]
        var counter = 0
        for _ in 0..<12 {
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let side = Bool.random(using: &rng) ? h.local : h.remote
                let hrefs = side.contents.keys.sorted()
                counter += 1
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<3:
                    let uid = "u\(Int.random(in: 0..<8, using: &rng))"
                    // A UID already on the side gets another file only if none has it.
                    if !h.items(side === h.local ? .local : .remote).keys.contains(uid) {
                        side.put(
                            "\(uid).ics",
                            TestEvent.data(
                                uid: uid, summary: "s\(counter)",
                                start: Bool.random(using: &rng) ? "20260310T100000Z" : "20290101T100000Z",
                                duration: "PT1H"))
                    }
                case 3..<7 where !hrefs.isEmpty:
                    let href = hrefs.randomElement(using: &rng)!
                    let uid = ItemContent(side.contents[href]!).uid ?? "x"
                    let field = Int.random(in: 0..<3, using: &rng)
                    side.put(
                        href,
                        TestEvent.data(
                            uid: uid, summary: field == 0 ? "s\(counter)" : "same",
                            start: Bool.random(using: &rng) ? "20260310T100000Z" : "20290101T100000Z",
                            duration: "PT1H",
                            lastModified: String(format: "2026%02d01T000000Z", counter % 12 + 1),
                            location: field == 1 ? "l\(counter)" : nil,
                            extra: field == 2 ? ["ATTENDEE:mailto:p\(counter)@example.com"] : []))
                case 7..<9 where !hrefs.isEmpty:
                    side.remove(hrefs.randomElement(using: &rng)!)
                case 9 where !hrefs.isEmpty:
                    // A file renamed: its item at a new href, the same UID.
                    let href = hrefs.randomElement(using: &rng)!
                    let data = side.contents[href]!
                    side.remove(href)
                    side.put("r\(counter).ics", data)
                default:
                    break
                }
            }
            if Int.random(in: 0..<3, using: &rng) == 0 {
                let op = [InMemoryStorage.Operation.create, .update, .delete].randomElement(using: &rng)!
                (Bool.random(using: &rng) ? h.local : h.remote).failNext(op)
            }
            var policy = SyncPolicy(conflict: strategies.randomElement(using: &rng)!, allowMassDelete: true)
            policy.direction = [.both, .both, .pull, .push].randomElement(using: &rng)!
            if Int.random(in: 0..<3, using: &rng) == 0 { policy.window = 1_772_323_200...1_780_272_000 }  // 2026-03..06
            if Int.random(in: 0..<4, using: &rng) == 0 {
                // A run that stops part-way, as a killed process would.
                do {
                    _ = try await h.engine(policy, faultAfter: Int.random(in: 1...12, using: &rng)).run()
                } catch is RunInterrupted {}
            } else {
                // The plan made from what moved is the plan made from every journal row.
                var whole = h.engine(policy)
                whole.plansFromChanges = false
                let (narrowed, _, _, _) = try await h.engine(policy).plan()
                let (full, _, _, _) = try await whole.plan()
                #expect(narrowed.actions == full.actions, "seed \(seed): \(narrowed.actions) vs \(full.actions)")
                #expect(
                    narrowed.massDeletion == full.massDeletion && narrowed.unparseable == full.unparseable,
                    "seed \(seed)")
                _ = try await h.sync(policy)
                // A side that keeps its change token is exactly what the journal says it holds.
                let items = try h.journal.items()
                for side in Side.allCases where try h.journal.collection(side).token != nil {
                    let known = Set(items.map { $0.record(side).href }).union(
                        try h.journal.outsideItems(side).map(\.href))
                    #expect(
                        Set(h.storage(side).contents.keys.map { ItemHref($0) }) == known,
                        "seed \(seed): \(side) token kept but the journal differs")
                }
            }
        }
        // Clear leftover injected failures, then a clean sync.
        h.local.clearFailures()
        h.remote.clearFailures()
        let last = try await h.sync(SyncPolicy(allowMassDelete: true))
        let final = try await h.sync(SyncPolicy(allowMassDelete: true))
        #expect(h.converged(), "seed \(seed): \(h.summaries(.local)) vs \(h.summaries(.remote))")
        #expect(
            final.created.total + final.updated.total + final.deleted.total == 0, "seed \(seed): \(final) after \(last)"
        )
        #expect(final.errors.isEmpty, "seed \(seed): \(final.errors)")
    }
}
