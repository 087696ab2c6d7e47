import Foundation

/// Where a plan needs the hash proper that a pending hash stands for (``ContentHash/pending(for:)``),
/// and the plan's inputs with it: pure, the engine reads the bases and makes the hashes
/// (``SyncEngine/settlingPendingHashes(_:local:remote:journal:)``).
///
/// A side whose etag did not move keeps the journal's hash, so a pending hash meets only
/// itself, and the planner's answer (unchanged) is right without the hash proper. A side read
/// again has a hash proper, which the planner compares with the journal's for that side and,
/// when both sides moved, with the other side's: there the pending hash must give way to the
/// hash it stands for, or a file only touched, or a server's new etag for the same content,
/// would look like an edit.
enum PendingHashes {
    /// The keys of the journal rows with a pending hash on a side that was read again in this
    /// run (the side's item has another hash than the row's for it), in the journal's order.
    static func needed(local: SideSnapshot, remote: SideSnapshot, journal: [JournalItem]) -> [ItemKey] {
        // Most journals hold none, and a no-op run reads no item: both are found out without
        // a table. An item kept from the journal carries the row's own value, pending or not.
        guard journal.contains(where: { $0.local.hash.isPending || $0.remote.hash.isPending }) else { return [] }
        var readAgain: [ItemKey: (local: ContentHash?, remote: ContentHash?)] = [:]
        for item in local.items where !item.hash.isPending {
            readAgain[item.key, default: (nil, nil)].local = item.hash
        }
        for item in remote.items where !item.hash.isPending {
            readAgain[item.key, default: (nil, nil)].remote = item.hash
        }
        guard !readAgain.isEmpty else { return [] }
        return journal.compactMap { row in
            guard row.local.hash.isPending || row.remote.hash.isPending, let read = readAgain[row.key] else {
                return nil
            }
            let local = row.local.hash.isPending && read.local.map { $0 != row.local.hash } == true
            let remote = row.remote.hash.isPending && read.remote.map { $0 != row.remote.hash } == true
            return local || remote ? row.key : nil
        }
    }

    /// Puts the hash each pending hash of `made` stands for in its place, in the journal rows
    /// and in both sides' items (a side kept from the journal carries the row's pending hash).
    static func replace(
        _ made: [ContentHash: ContentHash], in journal: inout [JournalItem], local: inout SideSnapshot,
        remote: inout SideSnapshot
    ) {
        guard !made.isEmpty else { return }
        for i in journal.indices {
            if let hash = made[journal[i].local.hash] { journal[i].local.hash = hash }
            if let hash = made[journal[i].remote.hash] { journal[i].remote.hash = hash }
        }
        for i in local.items.indices {
            if let hash = made[local.items[i].hash] { local.items[i].hash = hash }
        }
        for i in remote.items.indices {
            if let hash = made[remote.items[i].hash] { remote.items[i].hash = hash }
        }
    }
}
