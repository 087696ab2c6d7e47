import Foundation

/// The local side's items by key, for matching the server's as they arrive; a key two local
/// files share is never matched (the final plan reports it). An open-addressing table of
/// positions into the packed items (``PackedItems``), 4 bytes a slot: a dictionary from key to
/// position took 50 bytes an item (its slack included), a copy of the items 170.
struct LocalItems {
    let items: PackedItems
    /// Each slot is empty (0) or a position into `items` plus one; at most three in four are used.
    private var slots: [UInt32]
    private var shared: Set<ItemKey> = []

    init(_ items: PackedItems) {
        precondition(items.count < Int(UInt32.max), "more local items than a table of positions holds")
        self.items = items
        var capacity = 16
        while capacity - capacity / 4 <= items.count { capacity <<= 1 }
        slots = Array(repeating: 0, count: capacity)
        for (position, key) in items.keys.enumerated() {
            switch find(key) {
            case .found: shared.insert(key)
            case .free(let slot): slots[slot] = UInt32(position + 1)
            }
        }
    }

    private enum Probe { case found(Int), free(Int) }

    /// The slot holding `key`'s first item, or the free slot where it would go.
    private func find(_ key: ItemKey) -> Probe {
        let mask = slots.count - 1
        var slot = key.hashValue & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return .free(slot) }
            if items.keys[Int(entry) - 1] == key { return .found(Int(entry) - 1) }
            slot = (slot + 1) & mask
        }
    }

    var count: Int { items.count }

    /// True when a local file holds `key`.
    func holds(_ key: ItemKey) -> Bool {
        // An empty vdir (a first sync's) holds none: the key is not hashed to find that out.
        guard items.count > 0 else { return false }
        if case .found = find(key) { return true } else { return false }
    }

    /// Where the one local item of `key` is in `items`, nil when none or several hold it.
    func position(of key: ItemKey) -> Int? {
        guard items.count > 0, case .found(let position) = find(key), !shared.contains(key) else { return nil }
        return position
    }
}
