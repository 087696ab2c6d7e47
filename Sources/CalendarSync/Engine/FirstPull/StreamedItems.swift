import Foundation

/// What a streamed first pull has seen of the server so far: the keys it pulled, recorded or
/// skipped (to catch a UID the server holds twice in different batches), the items set aside
/// for the final plan, and what it could not sync.
struct StreamedItems {
    /// Each remote key no single local file holds that was pulled (false) or skipped (true)
    /// so far, as digests: a string per item would grow with the calendar.
    private var taken: [StringDigest: Bool] = [:]
    /// Whether each local item, by its position in ``LocalItems``, was found equal on the
    /// server and recorded with its batch. A key one local file holds is taken only so, so a
    /// takeover marks a flag per item where a digest and a key per item would take 50 bytes
    /// and more (their tables' slack included) of a 1,000,000-item run's memory.
    private(set) var recorded: [Bool]
    /// Remote items whose key came in an earlier batch already, with whether that first copy
    /// was skipped: reported once the journal holds where the first went (``repeatedKeys(journal:)``).
    private var repeated: [(key: ItemKey, href: ItemHref, firstSkipped: Bool)] = []
    /// Remote items whose key the vdir holds with other content (or twice), without their
    /// bytes: planned after the read.
    var setAside: [SideItem] = []
    private var setAsideKeys: Set<ItemKey> = []
    var unparseable: [ItemHref] = []
    /// A batch's plan skipped an item (the executor reported it with its batch).
    private(set) var leftOut = false

    init(localCount: Int) { recorded = Array(repeating: false, count: localCount) }

    /// The batch's items to pull now, and the records of those equal to their local file;
    /// sets aside those the vdir holds otherwise, and those whose file a hand edit broke (`blocked`).
    mutating func take(
        _ stored: [StoredItem], contents: [ItemContent], local: LocalItems, blocked: Set<ItemKey>
    ) -> (
        SideSnapshot, [PlannedAction]
    ) {
        var items: [SideItem] = []
        var equal: [PlannedAction] = []
        var unparseable: [ItemHref] = []
        for (item, content) in zip(stored, contents) {
            guard content.parses else {
                unparseable.append(item.href)
                continue
            }
            // The item is made where it goes: made first and appended, each was copied whole
            // (its strings and bytes retained) and the first copy destroyed.
            let key = content.key
            if let position = local.position(of: key) {
                if recorded[position] {
                    repeated.append((key, item.href, false))
                } else if local.items.hash(at: position) == content.hash, !setAsideKeys.contains(key) {
                    equal.append(
                        .record(
                            local: local.items[position],
                            remote: SideItem(version: item.version, data: item.data, content: content, key: key)))
                    recorded[position] = true
                } else {
                    setAside.append(SideItem(version: item.version, content: content, key: key))
                    setAsideKeys.insert(key)
                }
            } else if let firstSkipped = taken[StringDigest(key.value)] {
                repeated.append((key, item.href, firstSkipped))
            } else if local.holds(key) || (!blocked.isEmpty && blocked.contains(key)) {
                setAsideKeys.insert(key)
                setAside.append(SideItem(version: item.version, content: content, key: key))
            } else {
                items.append(SideItem(version: item.version, data: item.data, content: content, key: key))
            }
        }
        return (SideSnapshot(items: items, unparseable: unparseable), equal)
    }

    /// Remembers what the batch's plan pulls and skips.
    mutating func note(_ plan: SyncPlan, of batch: SideSnapshot) {
        unparseable += plan.unparseable[.remote] ?? []
        for action in plan.actions {
            switch action {
            case .create(_, let source): taken[StringDigest(source.key.value)] = false
            case .skip(let key, _):
                // The executor reports it with the batch (``SkipReason``); the journal cannot
                // vouch for the server's listing then.
                leftOut = true
                let digest = StringDigest(key.value)
                if taken[digest] == nil { taken[digest] = true }
            default: break
            }
        }
    }

    /// The errors for keys the server sent again in a later batch, naming the first copy by
    /// its href as the journal recorded it.
    func repeatedKeys(journal: Journal) throws -> [String] {
        guard !repeated.isEmpty else { return [] }
        var firstHref: [ItemKey: ItemHref] = [:]
        for item in try journal.items(keys: repeated.map(\.key)) { firstHref[item.key] = item.remote.href }
        return repeated.map { key, href, firstSkipped in
            let first = firstSkipped ? "an item skipped earlier" : firstHref[key]?.value ?? "an item pulled earlier"
            return "2 items on the remote side have UID \(key.value): \(first), \(href); "
                + "the first was pulled, the other is not synced (hint: give one a new UID, or delete the copy)"
        }
    }
}
