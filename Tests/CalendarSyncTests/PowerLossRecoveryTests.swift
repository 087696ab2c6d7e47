import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// New vdir files become durable with their batch (one `syncfs`), not one by one, so a power
/// loss in the middle of a batch can leave them empty or cut short. The intents recorded before
/// the batch name them; the next run removes such files and writes them again.
@Suite struct PowerLossRecoveryTests {
    typealias Pair = VDirPairScenarioTests.Pair

    /// Three events pulled by a run stopped after the files were written and before their
    /// outcomes were journaled; then the files are damaged as a power loss would leave them.
    func interruptedPull(damage: (Pair) throws -> Void) async throws -> Pair {
        let pair = try Pair()
        for uid in ["a", "b", "c"] {
            try TestEvent.data(uid: uid, summary: "event \(uid)", duration: "PT1H").write(
                to: pair.folder.file("remote/\(uid).ics"))
        }
        // Effects: the batch's intents (1), three file creates (2...4); stop before the outcomes.
        let engine = SyncEngine(
            local: pair.local, remote: pair.remote, journal: pair.journal,
            faultHook: { n in if n >= 4 { throw RunInterrupted() } })
        await #expect(throws: RunInterrupted.self) { try await engine.run() }
        #expect(try pair.files(pair.local).count == 3)
        #expect(try pair.journal.pendingIntents().count == 3)
        try damage(pair)
        return pair
    }

    @Test func emptyAndCutShortFilesAtPendingCreatesAreWrittenAgain() async throws {
        let pair = try await interruptedPull { pair in
            try Data().write(to: pair.folder.file("local/a.ics"))
            let b = TestEvent.data(uid: "b", summary: "event b", duration: "PT1H")
            try b.prefix(b.count / 2).write(to: pair.folder.file("local/b.ics"))
            try Data(count: 200).write(to: pair.folder.file("local/c.ics"))  // blocks never written
        }
        defer { pair.folder.remove() }
        let report = try await pair.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.created.local == 3)
        let local = try pair.files(pair.local)
        #expect(local.keys.sorted() == ["a.ics", "b.ics", "c.ics"], "no second copy under another name")
        for (name, data) in local {
            #expect(
                ContentHash.of(data) == ContentHash.of(try Data(contentsOf: pair.folder.file("remote/\(name)"))),
                "\(name)")
        }
        #expect(try pair.journal.pendingIntents().isEmpty)
        let again = try await pair.sync()
        #expect(again.created.total + again.updated.total + again.deleted.total == 0 && again.errors.isEmpty)
    }

    /// A whole calendar object at the name (someone wrote it there before the next run) is
    /// content, not a torn write: it stays, and the pulled event goes beside it.
    @Test func aWholeCalendarObjectAtAPendingCreateIsKept() async throws {
        let edit = TestEvent.data(uid: "someone-else", summary: "written by a person", duration: "PT1H")
        let pair = try await interruptedPull { pair in
            try edit.write(to: pair.folder.file("local/a.ics"))
        }
        defer { pair.folder.remove() }
        let report = try await pair.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let local = try pair.files(pair.local)
        #expect(local["a.ics"] == edit)
        #expect(local.count == 4)
        #expect(local.values.contains { String(decoding: $0, as: UTF8.self).contains("SUMMARY:event a") })
        #expect(try pair.journal.pendingIntents().isEmpty)
    }

    @Test func tornMeansEmptyUnwrittenOrCutShort() {
        let whole = TestEvent.data(uid: "x", duration: "PT1H")
        #expect(!SyncEngine.isTorn(whole))
        #expect(!SyncEngine.isTorn(whole + Data("\r\n\r\n".utf8)))
        #expect(SyncEngine.isTorn(Data()))
        #expect(SyncEngine.isTorn(Data(count: 4096)))
        #expect(SyncEngine.isTorn(whole.prefix(whole.count - 3)))
        #expect(SyncEngine.isTorn(whole.prefix(10)))
        var holed = whole
        holed[20] = 0
        #expect(SyncEngine.isTorn(holed))
    }
}
