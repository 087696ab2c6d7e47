/// Decides what a run does. A pure function of the two sides' current state and the journal:
/// no I/O, no clock, so every case can be tested directly.
///
/// Per item (matched by key): changed means the normalised content hash differs from the
/// journal's; a new etag with the same hash only refreshes the journal.
///
/// | journal | local | remote | action |
/// | --- | --- | --- | --- |
/// | – | new | – | create remote |
/// | – | – | new | create local |
/// | – | new | new | equal: record; else conflict |
/// | known | unchanged | unchanged | nothing (record if an etag moved) |
/// | known | changed | unchanged | update remote |
/// | known | unchanged | changed | update local |
/// | known | changed | changed | equal: record; else conflict |
/// | known | gone | unchanged | delete remote |
/// | known | gone | changed | create local (modification wins) |
/// | known | unchanged | gone | delete local |
/// | known | changed | gone | create remote (modification wins) |
/// | known | gone | gone | forget |
public enum Planner {
    /// The plan for a run.
    /// - Parameter known: how many items the journal knows, when `journal` is only the rows of
    ///   the items that changed (nil: `journal` is every row).
    public static func plan(
        local: SideSnapshot, remote: SideSnapshot, journal: [JournalItem], policy: SyncPolicy,
        known: Int? = nil
    ) -> SyncPlan {
        // Positions, not copies: at 100,000 items, dictionaries of whole items were most of a
        // run's memory.
        let localByKey = KeyIndex(local.items.lazy.map(\.key))
        let remoteByKey = KeyIndex(remote.items.lazy.map(\.key))
        let journalByKey = KeyIndex(journal.lazy.map(\.key))
        var keys = localByKey.keys
        keys.reserveCapacity(journal.count + remote.items.count / 8)
        for key in remoteByKey.keys where localByKey.first(key) == nil { keys.append(key) }
        for item in journal where localByKey.first(item.key) == nil && remoteByKey.first(item.key) == nil {
            keys.append(item.key)
        }

        let (unreadable, unparseable) = Self.unreadable(local: local, remote: remote, journal: journal)

        var actions: [PlannedAction] = []
        var outsideWindow = 0
        var outsideItems: [Side: [SideItem]] = [:]
        var localOutsideWindow = 0
        keys.sort()
        for key in keys {
            if let reason = unreadable[key] {
                actions.append(.skip(key, reason: reason))
                continue
            }
            let ls = localByKey.all(key).map { local.items[$0] }, rs = remoteByKey.all(key).map { remote.items[$0] }
            let known = journalByKey.first(key).map { journal[$0] }
            // The window bounds which items a pair takes up, not what becomes of them: an item the
            // journal knows follows its changes wherever they move it (an event moved out of the
            // window is moved in the vdir too), and an event made in the vdir since the last run
            // goes up wherever it lies. Others outside the window are remembered, not synced.
            if let window = policy.window, known == nil, (ls + rs).contains(where: { !$0.span.overlaps(window) }),
                !Self.isLocalCreation(ls, rs, journalIsEmpty: journal.isEmpty)
            {
                outsideWindow += 1
                if rs.isEmpty { localOutsideWindow += ls.filter { $0.data != nil }.count }
                for var item in ls { item.data = nil; outsideItems[.local, default: []].append(item) }
                for var item in rs { item.data = nil; outsideItems[.remote, default: []].append(item) }
                continue
            }
            // `item_types` bounds which items a pair takes up, as the window does: one of another
            // kind is neither copied nor deleted on either side.
            if let types = policy.itemTypes, known == nil,
                (ls + rs).contains(where: { !$0.kinds.isEmpty && !types.isSuperset(of: $0.kinds) })
            {
                continue
            }
            if ls.count > 1 || rs.count > 1 {
                actions.append(sharedUID(key, local: ls, remote: rs, in: (local, remote)))
                continue
            }
            guard let action = planItem(local: ls.first, remote: rs.first, journal: known) else { continue }
            actions.append(
                restrict(
                    action, to: policy.direction, resolvesConflictsOnPull: policy.remoteIsReadOnly,
                    personsActions: policy.personsActions))
        }

        var plan = SyncPlan(
            actions: actions,
            massDeletion: massDeletion(
                actions, local: local, remote: remote, known: known ?? journal.count, policy: policy),
            unparseable: unparseable)
        plan.outsideWindow = outsideWindow
        plan.outsideItems = outsideItems
        plan.newLocalOutsideWindow = localOutsideWindow
        return plan
    }

    /// The items that no longer parse. One the journal (or the side's own problems) names is
    /// left alone on both sides, with the reason, so that it does not look deleted; one it
    /// cannot name is an href the side reports as unparseable.
    static func unreadable(local: SideSnapshot, remote: SideSnapshot, journal: [JournalItem]) -> (
        keys: [ItemKey: SkipReason], hrefs: [Side: [ItemHref]]
    ) {
        var unreadable: [ItemKey: SkipReason] = [:]
        var unparseable: [Side: [ItemHref]] = [:]
        for (side, snapshot) in [(Side.local, local), (.remote, remote)] where !snapshot.unparseable.isEmpty {
            let bySideHref = Dictionary(journal.map { ($0.record(side).href, $0.key) }, uniquingKeysWith: { a, _ in a })
            for href in snapshot.unparseable {
                if let key = bySideHref[href] ?? snapshot.problemKeys[href] {
                    unreadable[key] =
                        snapshot.problems[href].map {
                            SkipReason(.handEdit, "\($0); left alone, and the other side too")
                        }
                        ?? SkipReason(
                            .unreadable,
                            "\(href) on the \(side.rawValue) side does not parse; left alone, and the other side too")
                } else {
                    unparseable[side, default: []].append(href)
                }
            }
        }
        return (unreadable, unparseable)
    }

    /// The skip of a UID held by several items on one side: none of them is synced.
    static func sharedUID(
        _ key: ItemKey, local ls: [SideItem], remote rs: [SideItem],
        in sides: (local: SideSnapshot, remote: SideSnapshot)
    ) -> PlannedAction {
        let snapshot = ls.count > 1 ? sides.local : sides.remote
        let places = (ls.count > 1 ? ls : rs).map(\.href).sorted().map(snapshot.location)
        return .skip(
            key,
            reason: SkipReason(
                .sharedUID,
                "\(places.count) items on the \(ls.count > 1 ? "local" : "remote") side "
                    + "have UID \(key.value): " + places.joined(separator: ", ")
                    + "; none of them is synced (hint: give one a new UID, or delete the copy)"))
    }

    /// True for an event made in the vdir since the last run: one item, on the local side only,
    /// read in this run (an item seen outside the window before is reused unread), in a pair
    /// that has synced before (a first sync's vdir is history, which the window bounds).
    static func isLocalCreation(_ local: [SideItem], _ remote: [SideItem], journalIsEmpty: Bool) -> Bool {
        !journalIsEmpty && remote.isEmpty && local.count == 1 && local[0].data != nil
    }

    /// The mass deletion `actions` would make, if any: a side found empty (no items, none
    /// unparseable) while the journal knows at least `massDeleteThreshold` items and the plan
    /// deletes on the other side; or, with at least `massDeleteShareMinimum` known, deletions
    /// (both sides together) of more than half of them. Pending deletions are not this run's.
    static func massDeletion(
        _ actions: [PlannedAction], local: SideSnapshot, remote: SideSnapshot, known: Int,
        policy: SyncPolicy
    ) -> SyncPlan.MassDeletion? {
        func deletions(on side: Side) -> Int {
            actions.reduce(0) { count, action in if case .delete(side, _) = action { count + 1 } else { count } }
        }
        var found: SyncPlan.MassDeletion?
        if known >= policy.massDeleteThreshold {
            for side in Side.allCases where (side == .local ? local : remote).holdsNothing {
                let count = deletions(on: side.other)
                if count > 0 { found = .init(emptySide: side, deletions: count, known: known) }
            }
        }
        if found == nil, known >= policy.massDeleteShareMinimum {
            let count = deletions(on: .local) + deletions(on: .remote)
            if count * 2 > known { found = .init(emptySide: nil, deletions: count, known: known) }
        }
        return found
    }

    /// The action for one item, nil when there is nothing to do.
    public static func planItem(local: SideItem?, remote: SideItem?, journal: JournalItem?) -> PlannedAction? {
        guard let journal else {
            switch (local, remote) {
            case let (l?, r?):
                return l.hash == r.hash ? .record(local: l, remote: r) : .conflict(local: l, remote: r, journal: nil)
            case let (l?, nil): return .create(on: .remote, source: l)
            case let (nil, r?): return .create(on: .local, source: r)
            case (nil, nil): return nil
            }
        }
        switch (local, remote) {
        case let (l?, r?):
            let localChanged = l.hash != journal.local.hash, remoteChanged = r.hash != journal.remote.hash
            switch (localChanged, remoteChanged) {
            case (false, false):
                let moved =
                    l.etag != journal.local.etag || r.etag != journal.remote.etag
                    || l.href != journal.local.href || r.href != journal.remote.href
                return moved ? .record(local: l, remote: r) : nil
            case (true, false): return .update(on: .remote, target: r, source: l)
            case (false, true): return .update(on: .local, target: l, source: r)
            case (true, true):
                return l.hash == r.hash
                    ? .record(local: l, remote: r) : .conflict(local: l, remote: r, journal: journal)
            }
        case let (l?, nil):
            return l.hash != journal.local.hash ? .create(on: .remote, source: l) : .delete(on: .local, target: l)
        case let (nil, r?):
            return r.hash != journal.remote.hash ? .create(on: .local, source: r) : .delete(on: .remote, target: r)
        case (nil, nil):
            return .forget(journal.key)
        }
    }

    /// Marks writes the direction does not allow as pending. Conflicts need both sides, so
    /// only `sync` resolves them, except that a pull from a read-only remote
    /// (`resolvesConflictsOnPull`) resolves them on the local side alone, and that a push of the
    /// person's own action on a meeting (`personsActions`) resolves it against what the server
    /// changed meanwhile (``Executor/resolvePersonsAction(local:remote:)``).
    static func restrict(
        _ action: PlannedAction, to direction: SyncDirection, resolvesConflictsOnPull: Bool = false,
        personsActions: Set<String> = []
    ) -> PlannedAction {
        if case .conflict(let l, _, _) = action, direction == .push, !resolvesConflictsOnPull,
            personsActions.contains(l.key.value)
        {
            return action
        }
        // `resolvesConflictsOnPull`: the remote is read-only, so nothing is written to it either.
        if let side = action.writes, !direction.writes(side) || (resolvesConflictsOnPull && side == .remote) {
            return .pending(action)
        }
        if case .conflict = action, direction != .both, !(resolvesConflictsOnPull && direction == .pull) {
            return .pending(action)
        }
        return action
    }
}

/// Where each key stands in a list of items: its first position, and every position of a key
/// that stands more than once (two files with one UID). Small where dictionaries of the items
/// themselves were large.
struct KeyIndex {
    /// Each distinct key once, in the order first seen.
    private(set) var keys: [ItemKey] = []
    private var firstPosition: [ItemKey: Int] = [:]
    private var laterPositions: [ItemKey: [Int]] = [:]

    init<Keys: Sequence>(_ keysInOrder: Keys) where Keys.Element == ItemKey {
        let expected = keysInOrder.underestimatedCount
        firstPosition.reserveCapacity(expected)
        keys.reserveCapacity(expected)
        for (position, key) in keysInOrder.enumerated() {
            // One lookup a key: the slot found or made (-1 when new), not read and then written.
            if Self.claim(&firstPosition[key, default: -1], for: position) {
                keys.append(key)
            } else {
                laterPositions[key, default: []].append(position)
            }
        }
    }

    /// Puts `position` in a new slot (-1); false when the slot holds an earlier position.
    private static func claim(_ slot: inout Int, for position: Int) -> Bool {
        guard slot < 0 else { return false }
        slot = position
        return true
    }

    /// The first position of `key`, nil when it is not in the list.
    func first(_ key: ItemKey) -> Int? { firstPosition[key] }

    /// Every position of `key`, in order.
    func all(_ key: ItemKey) -> [Int] {
        guard let first = firstPosition[key] else { return [] }
        return [first] + (laterPositions[key] ?? [])
    }
}
