import CalendarSync
import Foundation
import Synchronization

/// A `CalendarStorage` held in memory, with CalDAV-like behaviour: etags change on every
/// write, writes are conditional, the change token is a counter. Used by planner and
/// executor tests, which can also make any operation fail (`failNext`) to check that a sync
/// interrupted at that point converges on the next run.
public final class InMemoryStorage: CalendarStorage, @unchecked Sendable {
    struct State {
        var items: [ItemHref: StoredItem] = [:]
        var counter = 0
        var failures: [Operation: Int] = [:]
        var operations = 0
        /// (change number, href) of every change, for deltas.
        var log: [(Int, ItemHref)] = []

        /// Stores `data` at `href` under a new etag, logged as a change.
        mutating func store(_ data: Data, at href: ItemHref) -> ItemVersion {
            counter += 1
            log.append((counter, href))
            let version = ItemVersion(href: href, etag: ItemETag("\"\(counter)\""))
            items[href] = StoredItem(version: version, data: data)
            return version
        }
    }

    /// The kinds of operation a test can make fail.
    public enum Operation: Hashable, Sendable { case changes, fetch, create, update, delete }

    /// The error an injected failure throws.
    public struct InjectedFailure: Error, Sendable, Equatable {}

    private let state = Mutex(State())
    /// Called before every write with the href and why it is written (tests use it to change
    /// an item "concurrently", or to see which writes were the person's action).
    public let beforeWrite: (@Sendable (String, WriteIntent) -> Void)?
    /// Answer `changes(since:)` with deltas, as a sync-token server does (default false: full listings).
    public let answersWithDeltas: Bool

    /// A storage holding `items` (href → bytes), each with its own etag.
    public init(
        items: [String: Data] = [:], answersWithDeltas: Bool = false,
        beforeWrite: (@Sendable (String, WriteIntent) -> Void)? = nil
    ) {
        self.beforeWrite = beforeWrite
        self.answersWithDeltas = answersWithDeltas
        state.withLock { s in
            for (href, data) in items {
                s.counter += 1
                s.items[ItemHref(href)] = StoredItem(
                    version: ItemVersion(href: ItemHref(href), etag: ItemETag("\"\(s.counter)\"")), data: data)
            }
        }
    }

    /// The items now, by href.
    public var contents: [String: Data] {
        state.withLock { Dictionary(uniqueKeysWithValues: $0.items.map { ($0.key.value, $0.value.data) }) }
    }

    /// How many writes (create, update, delete) succeeded so far.
    public var writeCount: Int { state.withLock { $0.operations } }

    /// Makes the next `count` operations of `kind` throw `InjectedFailure`.
    public func failNext(_ kind: Operation, count: Int = 1) {
        state.withLock { $0.failures[kind, default: 0] += count }
    }

    /// Cancels failures injected but not yet triggered.
    public func clearFailures() { state.withLock { $0.failures = [:] } }

    /// Writes an item directly, as another client would (new etag).
    public func put(_ href: String, _ data: Data) {
        state.withLock { s in _ = s.store(data, at: ItemHref(href)) }
    }

    /// Removes an item directly, as another client would.
    public func remove(_ href: String) {
        state.withLock { s in
            guard s.items.removeValue(forKey: ItemHref(href)) != nil else { return }
            s.counter += 1
            s.log.append((s.counter, ItemHref(href)))
        }
    }

    private func check(_ kind: Operation) throws {
        try state.withLock { s in
            if let n = s.failures[kind], n > 0 {
                s.failures[kind] = n - 1
                throw InjectedFailure()
            }
        }
    }

    /// A full listing, or with `answersWithDeltas` the changes since the token's counter;
    /// `.unchanged` when nothing moved.
    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        try check(.changes)
        return state.withLock { s in
            let current = ChangeToken("mem:\(s.counter):\(s.items.count)")
            if token == current { return .unchanged(current) }
            if answersWithDeltas, let token, let since = Int(token.value.split(separator: ":").dropFirst().first ?? "")
            {
                let touched = Set(s.log.filter { $0.0 > since }.map(\.1))
                let changed = touched.compactMap { s.items[$0]?.version }.sorted { $0.href < $1.href }
                let removed = touched.filter { s.items[$0] == nil }.sorted()
                return .delta(changed: changed, removed: removed, token: current)
            }
            return .full(s.items.values.map(\.version).sorted { $0.href < $1.href }, token: current)
        }
    }

    /// The items at `hrefs`; those not held are left out.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        try check(.fetch)
        return state.withLock { s in hrefs.compactMap { s.items[$0] } }
    }

    /// Creates `<suggestedName>.ics` with a new etag; `.alreadyExists` when the href is taken.
    public func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        try check(.create)
        let href = ItemHref(suggestedName + ".ics")
        beforeWrite?(href.value, intent)
        return try state.withLock { s in
            if s.items[href] != nil { throw StorageError.alreadyExists(href: href) }
            s.operations += 1
            return s.store(data, at: href)
        }
    }

    /// Replaces the item with a new etag if its etag is still `etag`.
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws
        -> ItemVersion
    {
        try check(.update)
        beforeWrite?(href.value, intent)
        return try state.withLock { s in
            guard let current = s.items[href], current.etag == etag else {
                throw StorageError.preconditionFailed(href: href)
            }
            s.operations += 1
            return s.store(data, at: href)
        }
    }

    /// Removes the item if its etag is still `etag`; an item already gone is not an error.
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        try check(.delete)
        beforeWrite?(href.value, intent)
        try state.withLock { s in
            guard let current = s.items[href] else { return }
            guard current.etag == etag else { throw StorageError.preconditionFailed(href: href) }
            s.items.removeValue(forKey: href)
            s.counter += 1
            s.log.append((s.counter, href))
            s.operations += 1
        }
    }
}
