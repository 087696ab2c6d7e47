import Foundation

extension Executor {
    /// Ends a conflict with a read-only remote (a subscription): the local file was edited and
    /// the feed changed the same event. The remote cannot take the edit, so it is never lost
    /// instead: it is kept as a conflict copy, a new local item with the UID
    /// `<uid>-conflict-<8 hex digits>` (written before anything else changes), and the feed's
    /// version then replaces the original. The copy is the vdir's alone; later runs report it
    /// as a local change a pull does not send.
    ///
    /// Under `remote-wins` the feed's version is taken without a copy (the strategy says the
    /// edit may go); a conflict nobody decided (`ask` without an answer) is left as it is.
    func resolveWithReadOnlyRemote(
        local l: SideItem, remote r: SideItem, resolution: ConflictResolution, rule: ConflictOutcome
    ) async throws {
        switch resolution {
        case .unresolved:
            report.conflicts.append(.init(uid: l.key.value, resolution: .unresolved))
        case .takeRemote where rule == .resolved(.remoteWins):
            try await execute(.update(on: .local, target: l, source: r))
            report.conflicts.append(.init(uid: l.key.value, resolution: rule))
        default:
            let edit = l.data!
            let copyUID = l.key.value + "-conflict-" + ContentHash.of(edit).value.suffix(8)
            guard let copy = ConflictResolver.withUID(edit, copyUID) else {
                report.conflicts.append(.init(uid: l.key.value, resolution: .unresolved))
                return
            }
            let created = try await create(copy, hash: ContentHash.of(copy), key: .uid(copyUID), on: .local)
            try journal.complete(created.intent, change: .none); try effect()
            report.created.local += 1
            try await execute(.update(on: .local, target: l, source: r))
            report.conflicts.append(.init(uid: l.key.value, resolution: .keptAsCopy))
        }
    }
}
