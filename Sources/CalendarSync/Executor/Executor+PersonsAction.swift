import Foundation

extension Executor {
    /// Resolves the person's own action on a meeting (an answer, an organizer's edit) against
    /// what the server changed since the person's copy was synced, the way RFC 6638 §3.2.10
    /// asks a client to: a change that does not matter to the meeting (other attendees'
    /// answers, the server's delivery marks) is merged with the person's, and the result is
    /// written with `If-Schedule-Tag-Match` (the server merges what lands meanwhile too), so
    /// the action goes through, once. A change that matters (the organizer moved the meeting)
    /// is not overridden: an answer is not sent and the vdir gets the new version to answer
    /// again; any other action is left pending, as a push leaves any conflict.
    ///
    /// As the person's action (``WriteIntent/personsAction``): the server's copy is read again
    /// for it (with its Schedule-Tag), and the writes schedule.
    func resolvePersonsAction(local l0: SideItem, remote r0: SideItem) async throws {
        let l = try await data(of: l0, on: .local)
        guard let stored = try await storage(.remote).fetch([r0.href], for: .personsAction).first,
            let r = Self.refreshed(r0, from: stored)
        else {
            throw StorageError.preconditionFailed(href: r0.href)
        }
        let key = l.key
        guard let base = try journal.base(for: key), !base.isEmpty else { return leavePending(key) }
        if MeetingChange.matters(from: base, to: r.data!) {
            guard answers.contains(key.value) else { return leavePending(key) }
            // An answer to a version the person has not seen is not sent; they see the new one.
            try await execute(.update(on: .local, target: l, source: r))
            report.unsentAnswers.append(key.value)
            doneActions.insert(key.value)
            report.addError(
                "\(key): the organizer changed this meeting since your copy was synced, so your answer was not sent; "
                    + "the new version is in the vdir (hint: look at it, then answer again)")
            return
        }
        guard let merged = ThreeWayMerge.merge(base: base, local: l.data!, remote: r.data!, localWins: true) else {
            return leavePending(key)
        }
        let hash = ContentHash.of(merged)
        try await writeBoth(
            merged, local: { try await self.update(l, with: merged, hash: hash, on: .local) },
            remote: { try await self.update(r, with: merged, hash: hash, on: .remote, copying: $0) })
        report.updated.local += 1
        report.updated.remote += 1
    }

    /// Notes a write of the person's action that reached the server.
    func noteSent(_ key: ItemKey, to side: Side) {
        if side == .remote && isPersonsAction(key) { doneActions.insert(key.value) }
    }

    /// The person's actions that need nothing from a later run: those done with here, and those
    /// the plan had nothing to send for (the item is on the server as it is, or gone from both
    /// sides). One whose write failed, was left pending or skipped waits for the next run.
    func settledPersonsActions(of plan: SyncPlan) -> Set<String> {
        guard !personsActions.isEmpty else { return [] }
        var waiting: Set<String> = []
        for action in plan.actions where personsActions.contains(action.key.value) {
            switch action {
            case .pending(let inner):
                if case .conflict = inner {
                    waiting.insert(action.key.value)
                } else if inner.writes == .remote {
                    waiting.insert(action.key.value)
                }
            case .conflict, .skip:
                waiting.insert(action.key.value)
            default:
                if action.writes == .remote { waiting.insert(action.key.value) }
            }
        }
        return personsActions.subtracting(waiting.subtracting(doneActions))
    }

    /// Leaves a conflict of the person's action pending, as a push leaves any conflict.
    private func leavePending(_ key: ItemKey) {
        report.conflicts.append(.init(uid: key.value, resolution: .pending))
    }
}
