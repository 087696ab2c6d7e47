import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

@Suite struct SyncEngineTests {
    @Test func firstSyncCopiesEachWayAndSecondIsANoOp() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "from local", duration: "PT1H"))
        h.remote.put("/cal/b.ics", TestEvent.data(uid: "b", summary: "from remote", duration: "PT1H"))
        let report = try await h.sync()
        #expect(report.created == SyncReport.Counts(local: 1, remote: 1))
        #expect(h.summaries(.local) == ["a": "from local", "b": "from remote"])
        #expect(h.converged())
        let writes = h.local.writeCount + h.remote.writeCount
        let again = try await h.sync()
        #expect(again == SyncReport())
        #expect(h.local.writeCount + h.remote.writeCount == writes)
    }

    @Test func modificationsAndDeletionsFlowBothWays() async throws {
        let h = try SyncHarness()
        for uid in ["a", "b", "c", "d"] {
            h.local.put("\(uid).ics", TestEvent.data(uid: uid, summary: "v1", duration: "PT1H"))
        }
        try await h.sync()
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "local edit", duration: "PT1H"))
        h.local.remove("b.ics")
        h.remote.put("c.ics", TestEvent.data(uid: "c", summary: "remote edit", duration: "PT1H"))
        h.remote.remove("d.ics")
        let report = try await h.sync()
        #expect(report.updated == SyncReport.Counts(local: 1, remote: 1))
        #expect(report.deleted == SyncReport.Counts(local: 1, remote: 1))
        #expect(h.summaries(.remote) == ["a": "local edit", "c": "remote edit"])
        #expect(h.converged())
    }

    @Test func aServerRewriteDoesNotPingPong() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", duration: "PT1H"))
        try await h.sync()
        // The server restamps and changes PRODID: a new etag, the same meaning.
        h.remote.put(
            "a.ics", TestEvent.data(uid: "a", duration: "PT1H", prodid: "-//Server//EN", dtstamp: "20301111T111111Z"))
        let report = try await h.sync()
        #expect(report.updated == SyncReport.Counts())
        #expect(try await h.sync() == SyncReport())
    }

    @Test func modifyBeatsDelete() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "v1", duration: "PT1H"))
        h.local.put("b.ics", TestEvent.data(uid: "b", summary: "v1", duration: "PT1H"))
        try await h.sync()
        h.local.remove("a.ics")
        h.remote.put("a.ics", TestEvent.data(uid: "a", summary: "remote edit", duration: "PT1H"))
        h.remote.remove("b.ics")
        h.local.put("b.ics", TestEvent.data(uid: "b", summary: "local edit", duration: "PT1H"))
        try await h.sync()
        #expect(h.summaries(.local) == ["a": "remote edit", "b": "local edit"])
        #expect(h.converged())
    }

    @Test func pullAndPushOnlyWriteTheirSide() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", duration: "PT1H"))
        h.remote.put("b.ics", TestEvent.data(uid: "b", duration: "PT1H"))
        let pull = try await h.sync(SyncPolicy(direction: .pull))
        #expect(pull.created == SyncReport.Counts(local: 1, remote: 0))
        #expect(pull.pending.remote == 1)
        #expect(Set(h.items(.remote).keys) == ["b"])
        let push = try await h.sync(SyncPolicy(direction: .push))
        #expect(push.created == SyncReport.Counts(local: 0, remote: 1))
        #expect(h.converged())
    }

    @Test func massDeletionIsRefusedUnlessAllowed() async throws {
        let h = try SyncHarness()
        for i in 0..<5 { h.remote.put("\(i).ics", TestEvent.data(uid: "e\(i)", duration: "PT1H")) }
        try await h.sync()
        for href in h.local.contents.keys { h.local.remove(href) }
        await #expect { try await h.sync() } throws: { ($0 as? SyncError)?.code == .massDeletion }
        #expect(h.remote.contents.count == 5)
        let report = try await h.sync(SyncPolicy(allowMassDelete: true))
        #expect(report.deleted.remote == 5)
        #expect(h.remote.contents.isEmpty)
    }

    @Test func uidLessObjectsAreNotDuplicated() async throws {
        let h = try SyncHarness()
        h.local.put("x.ics", TestEvent.data(uid: nil, summary: "no uid", duration: "PT1H"))
        try await h.sync()
        #expect(h.remote.contents.count == 1)
        try await h.sync()
        h.local.put("x.ics", TestEvent.data(uid: nil, summary: "no uid, edited", duration: "PT1H"))
        try await h.sync()
        #expect(h.remote.contents.count == 1)
        #expect(h.local.contents.count == 1)
        #expect(h.converged())
        #expect(try await h.sync() == SyncReport())
    }

    @Test func unparseableItemsAreReportedAndLeftAlone() async throws {
        let h = try SyncHarness()
        let broken = Data("BEGIN:VCALENDAR\r\nnonsense\r\n".utf8)
        h.local.put("broken.ics", broken)
        h.local.put("ok.ics", TestEvent.data(uid: "ok", duration: "PT1H"))
        let report = try await h.sync()
        #expect(report.skipped.contains { $0.contains("broken.ics") })
        #expect(h.remote.contents.count == 1)
        #expect(h.local.contents["broken.ics"] == broken)
    }

    @Test func takeoverMatchesEqualItemsWithoutTransfers() async throws {
        let h = try SyncHarness()
        for i in 0..<3 {
            h.local.put("e\(i).ics", TestEvent.data(uid: "e\(i)", duration: "PT1H"))
            h.remote.put(
                "/dav/e\(i).ics",
                TestEvent.data(uid: "e\(i)", duration: "PT1H", prodid: "server", dtstamp: "20250101T000000Z"))
        }
        let report = try await h.sync()
        #expect(report == SyncReport())
        #expect(h.local.writeCount + h.remote.writeCount == 0)
        #expect(try h.journal.items().count == 3)
    }

    @Test func aConcurrentWriteBetweenListingAndPutIsReplanned() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "v1", duration: "PT1H", extra: ["DESCRIPTION:d1"]))
        try await h.sync()
        h.local.put(
            "a.ics",
            TestEvent.data(
                uid: "a", summary: "local title", duration: "PT1H", lastModified: "20260101T000000Z",
                extra: ["DESCRIPTION:d1"]))
        // Another client edits the description after our listing, just before our PUT.
        let remote = InMemoryStorage(items: h.remote.contents, beforeWrite: nil)
        _ = remote
        let racing = RacingStorage(inner: h.remote, .beforeFirstUpdate) {
            h.remote.put(
                "a.ics",
                TestEvent.data(
                    uid: "a", summary: "v1", duration: "PT1H", lastModified: "20260101T000001Z",
                    extra: ["DESCRIPTION:their edit"]))
        }
        let report = try await SyncEngine(local: h.local, remote: racing, journal: h.journal).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let merged = String(decoding: h.remote.contents["a.ics"]!, as: UTF8.self)
        #expect(merged.contains("SUMMARY:local title"))
        #expect(merged.contains("DESCRIPTION:their edit"))
        #expect(h.converged())
    }
}

@Suite struct UnparseableItemTests {
    @Test func aSyncedFileThatStopsParsingDeletesNothing() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", duration: "PT1H"))
        h.local.put("b.ics", TestEvent.data(uid: "b", duration: "PT1H"))
        try await h.sync()
        let broken = Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nhalf written".utf8)
        h.local.put("a.ics", broken)
        let report = try await h.sync()
        #expect(report.skipped.count == 1)
        #expect(report.skipped.first?.contains("a.ics") == true)
        #expect(h.remote.contents.count == 2, "the remote copy stays")
        #expect(h.local.contents["a.ics"] == broken, "the broken file stays")
        // Fixed again: syncs as usual.
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "fixed", duration: "PT1H"))
        try await h.sync()
        #expect(h.summaries(.remote)["a"] == "fixed")
    }
}

@Suite struct MetadataSyncTests {
    @Test func displayNameAndColorFollowTheSideThatChanged() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-meta-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let local = VDirStorage(url: folder.appendingPathComponent("l")),
            remote = VDirStorage(url: folder.appendingPathComponent("r"))
        let journal = try Journal.inMemory()
        let engine = SyncEngine(local: local, remote: remote, journal: journal)
        try await remote.setMetadata(CollectionMetadata(displayName: "Work", color: "#FF0000FF"))
        _ = try await engine.run()
        #expect(try await local.metadata() == CollectionMetadata(displayName: "Work", color: "#FF0000FF"))
        try local.directory.setMetadata(.displayName, "Job")
        _ = try await engine.run()
        #expect(try await remote.metadata().displayName == "Job")
        // A color written without alpha on one side is the same color.
        try local.directory.setMetadata(.color, "#ff0000")
        _ = try await engine.run()
        #expect(try await remote.metadata().color == "#FF0000FF")
    }

    @Test func mergeRules() {
        #expect(MetadataMerge.merge(local: "a", remote: "a", base: nil) == (nil, nil, "a"))
        #expect(MetadataMerge.merge(local: nil, remote: "r", base: "x") == ("r", nil, "r"))
        #expect(MetadataMerge.merge(local: "l", remote: "b", base: "b") == (nil, "l", "l"))
        #expect(MetadataMerge.merge(local: "b", remote: "r", base: "b") == ("r", nil, "r"))
        #expect(MetadataMerge.merge(local: "l", remote: "r", base: "b") == ("r", nil, "r"))
    }
}

@Suite struct WindowedSyncTests {
    // 2026-03-01 .. 2026-06-01
    let window: ClosedRange<Int64> = 1_772_323_200...1_780_272_000

    @Test func onlyEventsInTheWindowSyncAndAKnownOneFollowsItsChangesOutOfIt() async throws {
        let h = try SyncHarness()
        var policy = SyncPolicy()
        policy.window = window
        h.remote.put("in.ics", TestEvent.data(uid: "in", start: "20260310T100000Z", duration: "PT1H"))
        h.remote.put("old.ics", TestEvent.data(uid: "old", start: "20200101T100000Z", duration: "PT1H"))
        h.remote.put("later.ics", TestEvent.data(uid: "later", start: "20300101T100000Z", duration: "PT1H"))
        let series =
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:series\r\nDTSTART:20200101T100000Z\r\nRRULE:FREQ=WEEKLY\r\nSUMMARY:weekly\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        h.remote.put("series.ics", Data(series.utf8))
        let ended =
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:ended\r\nDTSTART:20200101T100000Z\r\nRRULE:FREQ=WEEKLY;UNTIL=20210101T000000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        h.remote.put("ended.ics", Data(ended.utf8))
        try await h.sync(policy)
        #expect(Set(h.items(.local).keys) == ["in", "series"])
        // The event moves out of the window on the server: the vdir's copy moves with it, not
        // left at a time it no longer has.
        h.remote.put("in.ics", TestEvent.data(uid: "in", summary: "moved", start: "20290101T100000Z", duration: "PT1H"))
        let report = try await h.sync(policy)
        #expect(report.deleted == SyncReport.Counts() && report.updated == SyncReport.Counts(local: 1))
        #expect(h.summaries(.local)["in"] == "moved")
        #expect(h.remote.contents.count == 5)
        #expect(try await h.sync(policy) == SyncReport())
        // Without a window, everything syncs.
        try await h.sync()
        #expect(h.items(.local).count == 5)
    }

    /// A known event deleted on one side while outside the window is deleted on the other.
    @Test func aKnownEventDeletedOutsideTheWindowIsDeletedOnTheOtherSide() async throws {
        let h = try SyncHarness()
        h.remote.put("old.ics", TestEvent.data(uid: "old", start: "20200101T100000Z", duration: "PT1H"))
        h.remote.put("in.ics", TestEvent.data(uid: "in", start: "20260310T100000Z", duration: "PT1H"))
        try await h.sync()
        var policy = SyncPolicy()
        policy.window = window
        h.remote.remove("old.ics")
        let report = try await h.sync(policy)
        #expect(report.deleted.local == 1 && Set(h.items(.local).keys) == ["in"])
    }

    /// An event made in the vdir after the first sync goes up wherever it lies; the vdir's
    /// history beyond the window at the first sync does not, and the run says so.
    @Test func aNewLocalEventOutsideTheWindowGoesUpButAFirstSyncsHistoryDoesNot() async throws {
        let h = try SyncHarness()
        var policy = SyncPolicy()
        policy.window = window
        h.local.put("history.ics", TestEvent.data(uid: "history", start: "20200101T100000Z", duration: "PT1H"))
        h.local.put("in.ics", TestEvent.data(uid: "in", start: "20260310T100000Z", duration: "PT1H"))
        let first = try await h.sync(policy)
        #expect(first.created.remote == 1 && Set(h.items(.remote).keys) == ["in"])
        #expect(
            first.notes.contains { $0.hasPrefix("1 event in the vdir lies outside the sync window") }, "\(first.notes)")
        #expect(try await h.sync(policy) == SyncReport())

        h.local.put("next-year.ics", TestEvent.data(uid: "next-year", start: "20270310T100000Z", duration: "PT1H"))
        let second = try await h.sync(policy)
        #expect(
            second.created.remote == 1 && second.notes.isEmpty && Set(h.items(.remote).keys) == ["in", "next-year"])
        // The history is left as it was until it changes.
        h.local.put(
            "history.ics",
            TestEvent.data(uid: "history", summary: "annotated", start: "20200101T100000Z", duration: "PT1H"))
        let third = try await h.sync(policy)
        #expect(third.created.remote == 1 && h.summaries(.remote)["history"] == "annotated")
    }

    /// A pair whose server holds an event in the window and one later (starting `later`),
    /// synced once with the window; the policy with it.
    func syncedWithOneEventOutside(later: String) async throws -> (SyncHarness, SyncPolicy) {
        let h = try SyncHarness()
        var policy = SyncPolicy()
        policy.window = window
        h.remote.put("in.ics", TestEvent.data(uid: "in", start: "20260310T100000Z", duration: "PT1H"))
        h.remote.put("later.ics", TestEvent.data(uid: "later", start: later, duration: "PT1H"))
        try await h.sync(policy)
        return (h, policy)
    }

    @Test func itemsOutsideTheWindowAreRememberedAndPickedUpWhenItReachesThem() async throws {
        var (h, policy) = try await syncedWithOneEventOutside(later: "20270101T100000Z")
        #expect(try h.journal.outsideItems(.remote).map(\.href) == ["later.ics"])
        #expect(try h.journal.collection(.remote).token != nil, "the remote side is fully accounted for")
        #expect(try await h.sync(policy) == SyncReport())
        // The window moves on; nothing changed on the server, yet the event is now synced.
        policy.window = (window.lowerBound + 300 * 86_400)...(window.upperBound + 300 * 86_400)
        let report = try await h.sync(policy)
        #expect(report.created.local == 1)
        #expect(Set(h.items(.local).keys) == ["in", "later"])
        #expect(try h.journal.outsideItems(.remote).isEmpty)
    }

    /// Both sides keep their tokens after a windowed run, yet what it left outside the window
    /// is still to be synced by a run without one: that run is not a quiet one.
    @Test func aRunWithoutTheWindowSyncsWhatAWindowedRunLeftOutEvenWithNothingChanged() async throws {
        let (h, policy) = try await syncedWithOneEventOutside(later: "20290101T100000Z")
        #expect(try await h.sync(policy) == SyncReport())
        #expect(try h.journal.collection(.local).token != nil && h.journal.collection(.remote).token != nil)
        let report = try await h.sync()
        #expect(report.created.local == 1)
        #expect(Set(h.items(.local).keys) == ["in", "later"])
        #expect(try !h.journal.hasOutsideItems())
        #expect(try await h.sync() == SyncReport())
    }

    @Test func windowText() throws {
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        let window = try #require(SyncWindow.parse("-90d..+365d", now: now))
        #expect(window.lowerBound == Int64(1_000_000_000 - 90 * 86_400))
        #expect(window.upperBound == Int64(1_000_000_000 + 365 * 86_400))
        #expect(SyncWindow.parse("0d..7d", now: now) != nil)
        #expect(SyncWindow.parse("7d..0d", now: now) == nil)
        #expect(SyncWindow.parse("soon", now: now) == nil)
    }
}

@Suite struct ReplanTests {
    @Test func aFileThatBreaksBetweenListingAndWriteIsLeftAlone() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "v1", duration: "PT1H"))
        try await h.sync()
        // The remote changes; just before the local write, an editor leaves the file half-saved.
        let remoteName = try #require(h.remote.contents.keys.first)
        h.remote.put(remoteName, TestEvent.data(uid: "a", summary: "remote edit", duration: "PT1H"))
        let broken = Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMM".utf8)
        let racing = RacingStorage(inner: h.local, .beforeFirstUpdate) { h.local.put("a.ics", broken) }
        let report = try await SyncEngine(local: racing, remote: h.remote, journal: h.journal).run()
        #expect(report.skipped.count == 1)
        #expect(h.local.contents["a.ics"] == broken)
        #expect(h.remote.contents.count == 1, "nothing deleted on the remote side")
        #expect(String(decoding: h.remote.contents[remoteName]!, as: UTF8.self).contains("remote edit"))
    }
}

@Suite struct ChangeTokenTests {
    @Test func pullKeepsTheRemoteTokenWhileLocalChangesWait() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", duration: "PT1H"))
        h.remote.put("b.ics", TestEvent.data(uid: "b", duration: "PT1H"))
        try await h.sync(SyncPolicy(direction: .pull))
        #expect(try h.journal.collection(.remote).token != nil, "the remote side is fully known")
        #expect(try h.journal.collection(.local).token == nil, "a.ics is not in the journal yet")
        // The push that follows still sees a.ics, and the remote is not listed in full again.
        let report = try await h.sync(SyncPolicy(direction: .push))
        #expect(report.created.remote == 1)
        #expect(h.converged())
        #expect(try await h.sync() == SyncReport())
    }

    @Test func pushWithAPendingRemoteDeletionKeepsListingTheLocalSide() async throws {
        let h = try SyncHarness()
        for uid in ["a", "b"] { h.local.put("\(uid).ics", TestEvent.data(uid: uid, duration: "PT1H")) }
        try await h.sync()
        h.local.remove("a.ics")
        h.remote.remove("b.ics")
        try await h.sync(SyncPolicy(direction: .push))
        #expect(try h.journal.collection(.remote).token == nil, "the remote deletion of b waits for a pull")
        #expect(h.remote.contents.count == 0)
        try await h.sync(SyncPolicy(direction: .pull))
        #expect(h.local.contents.isEmpty)
        #expect(try h.journal.items().isEmpty)
    }
}

@Suite struct DeltaListingTests {
    @Test func deltasSinceTheTokenCarryChangesAndDeletions() async throws {
        let h = try SyncHarness(deltas: true)
        for uid in ["a", "b", "c"] {
            h.remote.put("\(uid).ics", TestEvent.data(uid: uid, summary: "v1", duration: "PT1H"))
        }
        try await h.sync()
        let token = try #require(try h.journal.collection(.remote).token)
        h.remote.put("a.ics", TestEvent.data(uid: "a", summary: "v2", duration: "PT1H"))
        h.remote.remove("b.ics")
        guard case .delta(let changed, let removed, _) = try await h.remote.changes(since: token) else {
            Issue.record("a delta since the saved token"); return
        }
        #expect(changed.map(\.href) == ["a.ics"] && removed == ["b.ics"])
        let report = try await h.sync()
        #expect(report.updated.local == 1 && report.deleted.local == 1)
        #expect(h.summaries(.local) == ["a": "v2", "c": "v1"])
        #expect(try await h.sync() == SyncReport())
    }
}
