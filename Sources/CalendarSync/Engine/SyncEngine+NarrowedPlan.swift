import Foundation
import VDir

extension SyncEngine {
    /// Plans from what changed, not from every journal row: of a pair of 100,000 items with one
    /// edit, only the rows of the items whose href or etag moved on either side are loaded, and
    /// only they are planned.
    ///
    /// Each side's listing (or delta, or "unchanged") is set against the journal's hrefs and
    /// etags for that side; the rows at a moved href are loaded, and the scan reads the moved
    /// items against them. The rows of the keys those items now carry (a file renamed, a copy
    /// with another file's UID) are loaded too, with their unmoved places on both sides, so
    /// that the planner sees every item a key has. An item neither side moved is in sync, and
    /// the full plan would do nothing for it either. The mass-deletion guard is given the
    /// journal's count and each side's, not the narrowed ones.
    ///
    /// - Returns: nil where it does not apply (an empty journal, a sync window, items seen
    ///   outside one): the plan is then made from every row.
    func narrowedPlan(assigningUIDs: Bool, known: [Side: StorageChanges]) async throws
        -> (SyncPlan, [JournalItem], SideSnapshot, SideSnapshot)?
    {
        guard plansFromChanges, policy.window == nil else { return nil }
        let total = try journal.itemCount()
        guard total > 0, try !journal.hasOutsideItems() else { return nil }

        var moved: [Side: MovedHrefs] = [:]
        for side in Side.allCases {
            var changes = known[side]
            if changes == nil {
                do { changes = try await storage(side).changes(since: try journal.collection(side).token) } catch {
                    throw SyncError.scanFailed(side, error)
                }
            }
            if let windowed = storage(side).capabilities.windowedListing, case .full = changes! {
                var known: [ItemHref] = []
                try journal.forEachVersion(side) { href, _ in known.append(href) }
                changes = try await changes!.completed(by: windowed, knowing: known)
            }
            moved[side] = try MovedHrefs(changes!, journal: journal, side: side, total: total)
        }

        var rows: [JournalItem] = []
        var rowKeys: Set<ItemKey> = []
        for side in Side.allCases {
            for row in try journal.items(hrefs: moved[side]!.hrefs, on: side) where rowKeys.insert(row.key).inserted {
                rows.append(row)
            }
        }

        func scan(_ side: Side) async throws -> SideSnapshot {
            var scanner = SideScanner(side: side, storage: storage(side))
            scanner.readsInBulkWhenNew = false
            scanner.setsAsideMissingUIDs = side == .local && assigningUIDs
            let m = moved[side]!
            var snapshot = try await scanner.scan(
                journal: rows, token: nil,
                changes: .delta(changed: m.present, removed: m.removed, token: m.token))
            snapshot.population = m.population(knowing: Set(rows.map { $0.record(side).href }))
            return snapshot
        }
        var l: SideSnapshot, r: SideSnapshot
        do {
            l = try await assigningMissingUIDs(in: scan(.local))
        } catch let error as RunInterrupted {
            throw error
        } catch {
            throw SyncError.scanFailed(.local, error)
        }
        do { r = try await scan(.remote) } catch { throw SyncError.scanFailed(.remote, error) }

        // The rows of keys the moved items carry now, with where they stand on each side.
        var carried: Set<ItemKey> = []
        for item in l.items + r.items where item.data != nil && !rowKeys.contains(item.key) { carried.insert(item.key) }
        for row in try journal.items(keys: Array(carried)) where rowKeys.insert(row.key).inserted {
            rows.append(row)
            l.items.append(Self.unmoved(row, on: .local))
            r.items.append(Self.unmoved(row, on: .remote))
        }
        try Self.settlingPendingHashes(&rows, local: &l, remote: &r, journal: journal)
        let plan = Planner.plan(local: l, remote: r, journal: rows, policy: effectivePolicy, known: total)
        return (plan, rows, l, r)
    }

    /// A row's item on `side` as it stands unmoved since the last sync.
    static func unmoved(_ row: JournalItem, on side: Side) -> SideItem {
        let record = row.record(side)
        return SideItem(
            key: row.key, href: record.href, etag: record.etag, hash: record.hash, lastModified: row.lastModified,
            sequence: row.sequence, span: row.span)
    }
}

/// What moved on one side since the journal's last look: items at a new href or with another
/// etag (`present`), and hrefs the journal knows that are gone or reported gone (`removed`).
struct MovedHrefs {
    var present: [ItemVersion] = []
    var removed: [ItemHref] = []
    var token: ChangeToken?
    /// The side's item count when the listing gave it (nil: work it out from a delta).
    var count: Int?
    /// The journal's count of items.
    let total: Int

    init(_ changes: StorageChanges, journal: Journal, side: Side, total: Int) throws {
        self.total = total
        switch changes {
        case .unchanged(let t):
            token = t
            count = total
        case .full(let versions, let t):
            token = t
            count = versions.count
            // A merge of two lists in one byte order (a vdir lists in it already): the listing,
            // and the journal's hrefs read through a cursor. No map of either is built.
            let inOrder = zip(versions, versions.dropFirst()).allSatisfy {
                VDirectory.precedes($0.href.value, $1.href.value)
            }
            let listing = inOrder ? versions : versions.sorted { VDirectory.precedes($0.href.value, $1.href.value) }
            var next = 0
            try journal.forEachVersion(side) { href, etag in
                while next < listing.count, VDirectory.precedes(listing[next].href.value, href.value) {
                    present.append(listing[next])  // not in the journal: new
                    next += 1
                }
                if next < listing.count, listing[next].href == href {
                    if listing[next].etag != etag { present.append(listing[next]) }
                    next += 1
                } else {
                    removed.append(href)
                }
            }
            present += listing[next...]
        case .delta(let changed, let gone, let t):
            token = t
            present = changed
            removed = gone
        }
    }

    var hrefs: [ItemHref] { present.map(\.href) + removed }

    /// The side's item count, given the hrefs the journal knows among the moved ones.
    func population(knowing known: Set<ItemHref>) -> Int {
        if let count { return count }
        return total - removed.filter(known.contains).count + present.filter { !known.contains($0.href) }.count
    }
}
