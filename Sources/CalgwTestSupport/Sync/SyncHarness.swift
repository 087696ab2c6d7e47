import CalendarSync
import Foundation

/// Two in-memory sides and an in-memory journal, synced by the real engine: what the engine,
/// conflict and crash tests start from, so that each says only what it puts on which side.
///
/// ```swift
/// let h = try SyncHarness()
/// h.local.put("a.ics", TestEvent.data(uid: "a", summary: "v1"))
/// try await h.sync()
/// #expect(h.summaries(.remote) == ["a": "v1"] && h.converged())
/// ```
public struct SyncHarness: Sendable {
    /// The local side.
    public let local: InMemoryStorage
    /// The remote side.
    public let remote: InMemoryStorage
    /// The pair's journal, in memory.
    public let journal: Journal

    /// - Parameter deltas: both sides answer with deltas since a token, as sync-token servers do.
    public init(deltas: Bool = false) throws {
        local = InMemoryStorage(answersWithDeltas: deltas)
        remote = InMemoryStorage(answersWithDeltas: deltas)
        journal = try Journal.inMemory()
    }

    /// The engine over both sides and the journal.
    /// - Parameters:
    ///   - faultAfter: stop the run with `RunInterrupted` at this side effect (1 is the first), as
    ///     a crash would; nil: never.
    ///   - prompt: answers the `ask` strategy's questions.
    package func engine(
        _ policy: SyncPolicy = SyncPolicy(), faultAfter: Int? = nil,
        prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)? = nil
    ) -> SyncEngine {
        var hook: FaultHook?
        if let k = faultAfter {
            hook = { @Sendable (n: Int) throws in if n >= k { throw RunInterrupted() } }
        }
        return SyncEngine(
            local: local, remote: remote, journal: journal, policy: policy, prompt: prompt, faultHook: hook)
    }

    /// One run under `policy`.
    @discardableResult
    public func sync(_ policy: SyncPolicy = SyncPolicy()) async throws -> SyncReport {
        try await engine(policy).run()
    }

    /// The storage of `side`.
    public func storage(_ side: Side) -> InMemoryStorage { side == .local ? local : remote }

    /// The items of a side by key (UID), with their data.
    public func items(_ side: Side) -> [String: Data] {
        var out: [String: Data] = [:]
        for (_, data) in storage(side).contents { out[ItemContent(data).key.value] = data }
        return out
    }

    /// Summaries by UID, the quickest way to compare sides.
    public func summaries(_ side: Side) -> [String: String] {
        items(side).mapValues { data in
            let text = String(decoding: data, as: UTF8.self)
            return text.components(separatedBy: "\r\n").first { $0.hasPrefix("SUMMARY:") }.map {
                String($0.dropFirst(8))
            } ?? ""
        }
    }

    /// True when both sides hold the same items (by normalised hash), each UID once.
    public func converged() -> Bool {
        let l = storage(.local).contents.values.map { ContentHash.of($0) }.sorted { $0.value < $1.value }
        let r = storage(.remote).contents.values.map { ContentHash.of($0) }.sorted { $0.value < $1.value }
        let keys = storage(.local).contents.values.map { ItemContent($0).key }
        return l == r && Set(keys).count == keys.count
    }
}
