import Foundation

extension SyncEngine {
    /// `plan` with the writes held back (``HeldBackWrite``) left pending: a write to the
    /// server of a held item whose vdir version is the one the server failed on. Every other
    /// held item is let go (its file changed, the server's copy changed, it is in step), and
    /// (in ``run(dryRun:)``) so is an item the person's own command acts on, which asks to
    /// send it again.
    /// - Returns: the plan, and the held writes that still hold.
    func holdingBack(_ plan: SyncPlan) throws -> (SyncPlan, [String: HeldBackWrite]) {
        let held = try journal.heldBackWrites()
        guard !held.isEmpty else { return (plan, [:]) }
        var holding: [String: HeldBackWrite] = [:]
        var out = plan
        for (i, action) in plan.actions.enumerated() {
            guard let entry = held[action.key.value], Self.heldVersion(of: action) == entry.hash else { continue }
            out.actions[i] = .pending(action)
            holding[action.key.value] = entry
        }
        return (out, holding)
    }

    /// The vdir's version a write to the server would send: its content hash, empty for a
    /// deletion; nil for anything else.
    static func heldVersion(of action: PlannedAction) -> String? {
        switch action {
        case .create(.remote, let source), .update(.remote, _, let source): source.hash.value
        case .delete(.remote, _): ""
        default: nil
        }
    }

    /// Keeps what holds after a run: the writes still held (said once in a note, the first run
    /// after the failure) and those the run's executor found failing (``Executor/heldBack``).
    func keepHeldBack(
        _ holding: [String: HeldBackWrite], failed: [String: HeldBackWrite], into report: inout SyncReport
    )
        throws
    {
        var kept = holding
        for (uid, entry) in holding.sorted(by: { $0.key < $1.key }) where !entry.told {
            report.notes.append(
                "\(uid): held back: the server failed on this change when it was sent (\(entry.reason)); "
                    + "it stays in the vdir and is not sent again until it changes "
                    + "(an `event` command on it, such as `calgw event reply \(uid)`, sends it again)")
            kept[uid]?.told = true
        }
        kept.merge(failed) { _, new in new }
        try journal.setHeldBackWrites(kept)
    }
}
