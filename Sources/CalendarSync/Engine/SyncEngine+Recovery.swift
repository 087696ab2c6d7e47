import Foundation

/// Settling what an interrupted run left, before anything is planned.
///
/// A run stopped part-way (a kill, a power cut, an error) leaves intents `pending`: writes
/// that may or may not have landed. Each is looked up on the side it wrote. A write that
/// landed and copied an item from the other side leaves the item equal on both sides, so its
/// journal row is recorded as the run would have recorded it; a delete that landed removes
/// the row. Without that, an item pulled just before the stop would look new on the local side
/// to the next run, and one deleted on the server meanwhile would be uploaded back.
extension SyncEngine {
    /// Looks at each intent an interrupted run left, records whether its write landed and, for
    /// one that did, the item's journal row (see the extension's comment). The plan that
    /// follows starts from both sides' real state and a journal that knows what was written.
    ///
    /// A new vdir file is made durable with its batch, not on its own, so a power loss before
    /// that may leave it empty or cut short. Such a file at a pending create's name is the
    /// interrupted write itself (the name was free when it was made): it is removed, and the
    /// create is planned again. A whole calendar object there is kept.
    ///
    /// - Throws: when a side cannot be read (a server down): the intents stay pending, so that
    ///   the next run looks again rather than guessing.
    func recoverInterruptedRun() async throws {
        let pending = try journal.pendingIntents()
        // The rows recovery records are newer than the tokens the run began with.
        if !pending.isEmpty { try journal.forgetTokens() }
        var start = pending.startIndex
        // Intents recorded together share a row: it is settled once, with what was found of each.
        while start < pending.endIndex {
            var end = start
            while end < pending.endIndex && pending[end].id == pending[start].id { end += 1 }
            let row = pending[start..<end]
            let found = try await look(at: row)
            try journal.markRecovered(
                row[start], outcome: Self.summary(of: found.map(\.outcome)), changes: found.compactMap(\.change))
            start = end
        }
    }

    /// What each intent's side holds at the name it wrote: the outcome in words, and the journal
    /// change a landed write brings. Each side's names are read in one call.
    private func look(at intents: ArraySlice<Intent>) async throws -> [(outcome: String, change: JournalChange?)] {
        var names: [Side: [ItemHref]] = [:]
        for intent in intents {
            if let name = Self.name(writtenBy: intent) { names[intent.side, default: []].append(name) }
        }
        var found: [Side: StoredItems] = [:]
        for (side, list) in names { found[side] = StoredItems(try await storage(side).fetch(list)) }
        var results: [(outcome: String, change: JournalChange?)] = []
        for intent in intents {
            guard let name = Self.name(writtenBy: intent) else {
                results.append(("not landed", nil))
                continue
            }
            var current = found[intent.side]?.item(named: name)
            // A storage that names its creates itself holds a lost create under a name of its own.
            if current == nil, intent.operation == .create,
                let named = storage(intent.side).capabilities.serverNamed
            {
                current = try await named.created(key: intent.key)
            }
            results.append(try await settle(intent, current: current))
        }
        return results
    }

    /// The outcome of one intent, given what its side holds at its name now.
    private func settle(_ intent: Intent, current: StoredItem?) async throws -> (
        outcome: String, change: JournalChange?
    ) {
        switch intent.operation {
        case .delete:
            return current == nil ? ("landed", .remove(intent.key)) : ("not landed", nil)
        case .create, .update:
            guard let current else { return ("not landed", nil) }
            if let written = intent.newHash, written.describes(current.data) {
                return ("landed", intent.source.map { Self.change(landing: intent, as: current, from: $0) })
            }
            // A server that adds to what it stores (SOGo) holds the write with its additions.
            if let written = intent.newHash, let rewriting = storage(intent.side).capabilities.rewriting,
                try await rewriting.holds(current.data, afterWriting: written)
            {
                return (
                    "landed, with the server's additions",
                    intent.source.map { Self.change(landing: intent, as: current, from: $0, rewritten: true) }
                )
            }
            if intent.operation == .create, intent.side == .local, Self.isTorn(current.data) {
                try await local.delete(href: current.href, ifMatch: current.etag)
                try effects.happened()
                return ("torn by the interruption; removed", nil)
            }
            return ("not landed", nil)
        }
    }

    /// The journal row of an item a landed write made equal on both sides: this side as it
    /// is now, the other as it was read for the write (if it changed since, the next plan sees
    /// that change and carries it over, as it would after a finished run). A `rewritten` write
    /// is recorded at the version the side keeps, so the next plan sees no change on it.
    static func change(
        landing intent: Intent, as current: StoredItem, from source: SideRecord, rewritten: Bool = false
    ) -> JournalChange {
        let content = ItemContent(current.data)
        let hash = rewritten ? content.hash : intent.newHash ?? content.hash
        let written = SideRecord(href: current.href, etag: current.etag, hash: hash)
        let (local, remote) = intent.side == .local ? (written, source) : (source, written)
        let row = JournalItem(
            key: intent.key, local: local, remote: remote, lastModified: content.lastModified,
            sequence: content.sequence, span: content.span)
        return .upsert(row, base: current.data)
    }

    /// The name an intent wrote: a create's asked-for stem as a file name, else its href.
    static func name(writtenBy intent: Intent) -> ItemHref? {
        guard let href = intent.href else { return nil }
        return intent.operation == .create && !href.value.hasSuffix(".ics") ? ItemHref(href.value + ".ics") : href
    }

    /// What recovery found of the intents of one row: the outcome of a single one; for several,
    /// how many had each outcome, the most frequent first ("2048 intents: 2040 landed, 8 not landed").
    static func summary(of outcomes: [String]) -> String {
        guard outcomes.count > 1 else { return outcomes.first ?? "" }
        var counts: [String: Int] = [:]
        for outcome in outcomes { counts[outcome, default: 0] += 1 }
        let parts = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map {
            "\($0.value) \($0.key)"
        }
        return "\(outcomes.count) intents: " + parts.joined(separator: ", ")
    }

    /// True for bytes that cannot be a whole calendar object as calgw writes one: empty, holding
    /// NUL bytes (blocks never written), or not ending in `END:VCALENDAR`.
    static func isTorn(_ data: Data) -> Bool {
        if data.isEmpty || data.contains(0) { return true }
        let end = Array("END:VCALENDAR".utf8)
        var tail = data[...]
        while let last = tail.last, last == 0x0A || last == 0x0D || last == 0x20 || last == 0x09 {
            tail = tail.dropLast()
        }
        return !tail.suffix(end.count).elementsEqual(end)
    }
}

/// Items a side returned for names asked: a server answers with full paths where a create
/// asked for a bare file name, so an item is found by its href or by its last segment.
private struct StoredItems {
    private var byHref: [ItemHref: StoredItem] = [:]
    private var byLastSegment: [Substring: StoredItem] = [:]

    init(_ items: [StoredItem]) {
        for item in items {
            byHref[item.href] = item
            let href = item.href.value
            if let slash = href.lastIndex(of: "/") { byLastSegment[href[href.index(after: slash)...]] = item }
        }
    }

    func item(named name: ItemHref) -> StoredItem? {
        byHref[name] ?? (name.value.contains("/") ? nil : byLastSegment[Substring(name.value)])
    }
}
