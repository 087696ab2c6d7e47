import CalendarSync
import Foundation
import Synchronization

/// A `CalendarStorage` held in memory, with CalDAV-like behaviour: etags change on every
/// write, writes are conditional, the change token is a counter. Used by planner and
/// executor tests, which can also make any operation fail (`failNext`) to check that a sync
/// interrupted at that point converges on the next run.
public final class InMemoryStorage: CalendarStorage, @unchecked Sendable {
    struct State {
        var items: [String: StoredItem] = [:]
        var counter = 0
        var failures: [Operation: Int] = [:]
        var operations = 0
        /// (change number, href) of every change, for deltas.
        var log: [(Int, String)] = []
    }

    /// The kinds of operation a test can make fail.
    public enum Operation: Hashable, Sendable { case changes, fetch, create, update, delete }

    /// The error an injected failure throws.
    public struct InjectedFailure: Error, Sendable, Equatable {}

    private let state = Mutex(State())
    /// Called before every write with the href (tests use it to change an item "concurrently").
    public let beforeWrite: (@Sendable (String) -> Void)?
    /// Answer `changes(since:)` with deltas, as a sync-token server does (default false: full listings).
    public let answersWithDeltas: Bool

    public init(items: [String: Data] = [:], answersWithDeltas: Bool = false, beforeWrite: (@Sendable (String) -> Void)? = nil) {
        self.beforeWrite = beforeWrite
        self.answersWithDeltas = answersWithDeltas
        state.withLock { s in
            for (href, data) in items {
                s.counter += 1
                s.items[href] = StoredItem(version: ItemVersion(href: href, etag: "\"\(s.counter)\""), data: data)
            }
        }
    }

    /// The items now, by href.
    public var contents: [String: Data] { state.withLock { $0.items.mapValues(\.data) } }

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
        state.withLock { s in
            s.counter += 1
            s.log.append((s.counter, href))
            s.items[href] = StoredItem(version: ItemVersion(href: href, etag: "\"\(s.counter)\""), data: data)
        }
    }

    /// Removes an item directly, as another client would.
    public func remove(_ href: String) {
        state.withLock { s in
            guard s.items.removeValue(forKey: href) != nil else { return }
            s.counter += 1
            s.log.append((s.counter, href))
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

    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        try check(.changes)
        return state.withLock { s in
            let current = ChangeToken("mem:\(s.counter):\(s.items.count)")
            if token == current { return .unchanged(current) }
            if answersWithDeltas, let token, let since = Int(token.value.split(separator: ":").dropFirst().first ?? "") {
                let touched = Set(s.log.filter { $0.0 > since }.map(\.1))
                let changed = touched.compactMap { s.items[$0]?.version }.sorted { $0.href < $1.href }
                let removed = touched.filter { s.items[$0] == nil }.sorted()
                return .delta(changed: changed, removed: removed, token: current)
            }
            return .full(s.items.values.map(\.version).sorted { $0.href < $1.href }, token: current)
        }
    }

    public func fetch(_ hrefs: [String]) async throws -> [StoredItem] {
        try check(.fetch)
        return state.withLock { s in hrefs.compactMap { s.items[$0] } }
    }

    public func create(_ data: Data, suggestedName: String) async throws -> ItemVersion {
        try check(.create)
        let href = suggestedName + ".ics"
        beforeWrite?(href)
        return try state.withLock { s in
            if s.items[href] != nil { throw StorageError.alreadyExists(href: href) }
            s.counter += 1
            s.log.append((s.counter, href))
            s.operations += 1
            let version = ItemVersion(href: href, etag: "\"\(s.counter)\"")
            s.items[href] = StoredItem(version: version, data: data)
            return version
        }
    }

    public func update(href: String, data: Data, ifMatch etag: String) async throws -> ItemVersion {
        try check(.update)
        beforeWrite?(href)
        return try state.withLock { s in
            guard let current = s.items[href], current.etag == etag else { throw StorageError.preconditionFailed(href: href) }
            s.counter += 1
            s.log.append((s.counter, href))
            s.operations += 1
            let version = ItemVersion(href: href, etag: "\"\(s.counter)\"")
            s.items[href] = StoredItem(version: version, data: data)
            return version
        }
    }

    public func delete(href: String, ifMatch etag: String) async throws {
        try check(.delete)
        beforeWrite?(href)
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
