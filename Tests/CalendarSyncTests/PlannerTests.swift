import Foundation
import Testing
@testable import CalendarSync

/// Every combination of (absent, unchanged, changed, etag-only change) on each side, with and
/// without a journal entry.
@Suite struct PlannerTests {
    enum State: CaseIterable, Sendable {
        case absent, unchanged, changed, touched
    }

    static let key = ItemKey("u1")
    static let journal = JournalItem(
        key: key, local: SideRecord(href: "u1.ics", etag: "L0", hash: ContentHash("base")),
        remote: SideRecord(href: "/c/u1.ics", etag: "R0", hash: ContentHash("base")))

    func item(_ state: State, _ side: Side, changedHash: String) -> SideItem? {
        let href: ItemHref = side == .local ? "u1.ics" : "/c/u1.ics", etag0 = side == .local ? "L0" : "R0"
        switch state {
        case .absent: return nil
        case .unchanged: return SideItem(key: Self.key, href: href, etag: ItemETag(etag0), hash: ContentHash("base"))
        case .touched:
            return SideItem(key: Self.key, href: href, etag: ItemETag(etag0 + "t"), hash: ContentHash("base"))
        case .changed:
            return SideItem(
                key: Self.key, href: href, etag: ItemETag(etag0 + "x"), hash: ContentHash(changedHash), data: Data())
        }
    }

    /// The expected action's shape for a known item.
    func expected(_ l: State, _ r: State, sameChange: Bool) -> String {
        switch (l, r) {
        case (.absent, .absent): return "forget"
        case (.absent, .changed): return "create local"
        case (.absent, _): return "delete remote"
        case (.changed, .absent): return "create remote"
        case (_, .absent): return "delete local"
        case (.changed, .changed): return sameChange ? "record" : "conflict"
        case (.changed, _): return "update remote"
        case (_, .changed): return "update local"
        case (.touched, _), (_, .touched): return "record"
        case (.unchanged, .unchanged): return "none"
        }
    }

    func shape(_ action: PlannedAction?) -> String {
        switch action {
        case nil: "none"
        case .create(let side, _)?: "create \(side.rawValue)"
        case .update(let side, _, _)?: "update \(side.rawValue)"
        case .delete(let side, _)?: "delete \(side.rawValue)"
        case .conflict?: "conflict"
        case .record?: "record"
        case .forget?: "forget"
        case .pending(let a)?: "pending " + shape(a)
        case .skip?: "skip"
        }
    }

    @Test(arguments: State.allCases, State.allCases)
    func knownItem(local: State, remote: State) {
        for sameChange in [false, true] {
            let l = item(local, .local, changedHash: "L"),
                r = item(remote, .remote, changedHash: sameChange ? "L" : "R")
            let action = Planner.planItem(local: l, remote: r, journal: Self.journal)
            #expect(
                shape(action) == expected(local, remote, sameChange: sameChange),
                "local \(local), remote \(remote), same change \(sameChange)")
        }
    }

    @Test(arguments: [false, true], [false, true])
    func newItem(localPresent: Bool, remotePresent: Bool) {
        for equal in [false, true] {
            let l = localPresent ? SideItem(key: Self.key, href: "u1.ics", etag: "1", hash: ContentHash("A")) : nil
            let r =
                remotePresent
                ? SideItem(key: Self.key, href: "/c/x", etag: "2", hash: ContentHash(equal ? "A" : "B")) : nil
            let expected =
                switch (localPresent, remotePresent) {
                case (true, true): equal ? "record" : "conflict"
                case (true, false): "create remote"
                case (false, true): "create local"
                case (false, false): "none"
                }
            #expect(shape(Planner.planItem(local: l, remote: r, journal: nil)) == expected)
        }
    }

    func snapshot(_ items: [SideItem]) -> SideSnapshot { SideSnapshot(items: items) }

    @Test func pullAndPushLeaveTheOtherDirectionPending() {
        let l = SideItem(key: ItemKey("a"), href: "a.ics", etag: "1", hash: ContentHash("A"))
        let r = SideItem(key: ItemKey("b"), href: "/b", etag: "1", hash: ContentHash("B"))
        let pull = Planner.plan(
            local: snapshot([l]), remote: snapshot([r]), journal: [], policy: SyncPolicy(direction: .pull))
        #expect(pull.actions.map(shape) == ["pending create remote", "create local"])
        let push = Planner.plan(
            local: snapshot([l]), remote: snapshot([r]), journal: [], policy: SyncPolicy(direction: .push))
        #expect(push.actions.map(shape) == ["create remote", "pending create local"])
        let both = Planner.plan(
            local: snapshot([l]), remote: snapshot([r]), journal: [], policy: SyncPolicy(direction: .both))
        #expect(both.actions.map(shape) == ["create remote", "create local"])
    }

    @Test func conflictsWaitForSync() {
        let l = SideItem(key: ItemKey("a"), href: "a.ics", etag: "1", hash: ContentHash("A"))
        let r = SideItem(key: ItemKey("a"), href: "/a", etag: "1", hash: ContentHash("B"))
        for direction in [SyncDirection.pull, .push] {
            let plan = Planner.plan(
                local: snapshot([l]), remote: snapshot([r]), journal: [], policy: SyncPolicy(direction: direction))
            #expect(plan.actions.map(shape) == ["pending conflict"])
        }
    }

    func journalItems(_ n: Int) -> [JournalItem] {
        (0..<n).map { i in
            JournalItem(
                key: ItemKey("k\(i)"), local: SideRecord(href: "k\(i).ics", etag: "l", hash: ContentHash("h\(i)")),
                remote: SideRecord(href: "/k\(i)", etag: "r", hash: ContentHash("h\(i)")))
        }
    }

    @Test func anEmptiedSideIsAMassDeletion() {
        let journal = journalItems(5)
        let remoteItems = journal.map { SideItem(key: $0.key, href: $0.remote.href, etag: "r", hash: $0.remote.hash) }
        let plan = Planner.plan(
            local: snapshot([]), remote: snapshot(remoteItems), journal: journal, policy: SyncPolicy())
        #expect(plan.massDeletion == SyncPlan.MassDeletion(emptySide: .local, deletions: 5, known: 5))
        let localItems = journal.map { SideItem(key: $0.key, href: $0.local.href, etag: "l", hash: $0.local.hash) }
        let other = Planner.plan(
            local: snapshot(localItems), remote: snapshot([]), journal: journal, policy: SyncPolicy())
        #expect(other.massDeletion?.emptySide == .remote)
        // Deleting some but not all is ordinary.
        let some = Planner.plan(
            local: snapshot(Array(localItems.prefix(1))), remote: snapshot(remoteItems), journal: journal,
            policy: SyncPolicy())
        #expect(some.massDeletion == nil)
        #expect(some.actions.filter { shape($0) == "delete remote" }.count == 4)
    }

    @Test func deletingMoreThanHalfOfWhatTheJournalKnowsIsAMassDeletion() {
        func plan(known: Int, keptLocally: Int, policy: SyncPolicy = SyncPolicy()) -> SyncPlan {
            let journal = journalItems(known)
            let remoteItems = journal.map {
                SideItem(key: $0.key, href: $0.remote.href, etag: "r", hash: $0.remote.hash)
            }
            let localItems = journal.prefix(keptLocally).map {
                SideItem(key: $0.key, href: $0.local.href, etag: "l", hash: $0.local.hash)
            }
            return Planner.plan(
                local: snapshot(Array(localItems)), remote: snapshot(remoteItems), journal: journal, policy: policy)
        }
        // 25 of 40 deleted: refused, though neither side is empty.
        #expect(
            plan(known: 40, keptLocally: 15).massDeletion
                == SyncPlan.MassDeletion(emptySide: nil, deletions: 25, known: 40))
        // Exactly half is not more than half.
        #expect(plan(known: 40, keptLocally: 20).massDeletion == nil)
        // Below 20 known items only an emptied side counts.
        #expect(plan(known: 19, keptLocally: 1).massDeletion == nil)
        #expect(plan(known: 20, keptLocally: 9).massDeletion?.deletions == 11)
        // The share counts deletions on both sides together.
        let journal = journalItems(30)
        let localItems = journal.prefix(22).map {
            SideItem(key: $0.key, href: $0.local.href, etag: "l", hash: $0.local.hash)
        }
        let remoteItems = journal.suffix(22).map {
            SideItem(key: $0.key, href: $0.remote.href, etag: "r", hash: $0.remote.hash)
        }
        let both = Planner.plan(
            local: snapshot(Array(localItems)), remote: snapshot(Array(remoteItems)), journal: journal,
            policy: SyncPolicy())
        #expect(both.massDeletion == SyncPlan.MassDeletion(emptySide: nil, deletions: 16, known: 30))
        // Pending deletions (a pull does not delete remotely) are not this run's.
        #expect(plan(known: 40, keptLocally: 15, policy: SyncPolicy(direction: .pull)).massDeletion == nil)
    }

    @Test func twoItemsWithOneUIDAreSkippedNotDeleted() {
        let a = SideItem(key: ItemKey("dup"), href: "a.ics", etag: "1", hash: ContentHash("A"))
        let b = SideItem(key: ItemKey("dup"), href: "b.ics", etag: "1", hash: ContentHash("B"))
        let plan = Planner.plan(local: snapshot([a, b]), remote: snapshot([]), journal: [], policy: SyncPolicy())
        #expect(plan.actions.map(shape) == ["skip"])
        if case .skip(_, let reason) = plan.actions[0] {
            #expect(reason.kind == .sharedUID && reason.text.contains("a.ics") && reason.text.contains("b.ics"))
        }
    }

    @Test func unchangedEverywhereIsAnEmptyPlan() {
        let journal = journalItems(3)
        let l = journal.map { SideItem(key: $0.key, href: $0.local.href, etag: $0.local.etag, hash: $0.local.hash) }
        let r = journal.map { SideItem(key: $0.key, href: $0.remote.href, etag: $0.remote.etag, hash: $0.remote.hash) }
        #expect(
            Planner.plan(local: snapshot(l), remote: snapshot(r), journal: journal, policy: SyncPolicy()).actions
                .isEmpty)
    }

    /// A plan holds an action per item it writes (a first push of 100,000 files, 100,000): an
    /// action takes the room of one item and its tag, whatever its largest case carries.
    @Test func anActionIsAsLargeAsOneItem() {
        #expect(
            MemoryLayout<PlannedAction>.size <= MemoryLayout<SideItem>.size + MemoryLayout<Int>.size,
            "PlannedAction is \(MemoryLayout<PlannedAction>.size) bytes, SideItem \(MemoryLayout<SideItem>.size)")
    }
}
