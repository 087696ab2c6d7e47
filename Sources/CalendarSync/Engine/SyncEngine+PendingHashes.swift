import Foundation

extension SyncEngine {
    /// Makes the hashes proper this plan compares in place of pending ones (``PendingHashes``),
    /// each from its row's merge base: the bytes a first pull copied, which both sides held.
    /// A base whose pending hash is not the row's (it changed since, or is missing) makes
    /// none, and the side is taken as changed, as for a row without a base: nothing is lost,
    /// at worst a copy is written again.
    static func settlingPendingHashes(
        _ rows: inout [JournalItem], local: inout SideSnapshot, remote: inout SideSnapshot, journal: Journal
    ) throws {
        let needed = PendingHashes.needed(local: local, remote: remote, journal: rows)
        guard !needed.isEmpty else { return }
        let wanted = Set(needed)
        var pendingOf: [ItemKey: [ContentHash]] = [:]
        for row in rows where wanted.contains(row.key) {
            pendingOf[row.key] = [row.local.hash, row.remote.hash].filter(\.isPending)
        }
        var made: [ContentHash: ContentHash] = [:]
        try journal.forEachBase(of: needed) { key, base in
            let stands = ContentHash.pending(for: base)
            guard pendingOf[key]?.contains(stands) == true else { return }
            made[stands] = ItemContent(base).hash
        }
        PendingHashes.replace(made, in: &rows, local: &local, remote: &remote)
    }
}
