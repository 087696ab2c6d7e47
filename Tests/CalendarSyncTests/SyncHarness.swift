import Foundation
import CalgwTestSupport
@testable import CalendarSync

/// Two in-memory sides and an in-memory journal, synced by the real engine.
struct SyncHarness {
    let local: InMemoryStorage
    let remote: InMemoryStorage
    let journal: Journal

    /// - Parameter deltas: both sides answer with deltas since a token, as sync-token servers do.
    init(deltas: Bool = false) throws {
        local = InMemoryStorage(answersWithDeltas: deltas)
        remote = InMemoryStorage(answersWithDeltas: deltas)
        journal = try Journal.inMemory()
    }

    func engine(_ policy: SyncPolicy = SyncPolicy(), faultAfter: Int? = nil,
                prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)? = nil) -> SyncEngine {
        var hook: FaultHook?
        if let k = faultAfter {
            hook = { @Sendable (n: Int) throws in if n >= k { throw RunInterrupted() } }
        }
        return SyncEngine(local: local, remote: remote, journal: journal, policy: policy, prompt: prompt, faultHook: hook)
    }

    @discardableResult
    func sync(_ policy: SyncPolicy = SyncPolicy()) async throws -> SyncReport {
        try await engine(policy).run()
    }

    func storage(_ side: Side) -> InMemoryStorage { side == .local ? local : remote }

    /// The items of a side by key (UID), with their data.
    func items(_ side: Side) -> [String: Data] {
        var out: [String: Data] = [:]
        for (_, data) in storage(side).contents { out[ItemContent(data).key.value] = data }
        return out
    }

    /// Summaries by UID, the quickest way to compare sides.
    func summaries(_ side: Side) -> [String: String] {
        items(side).mapValues { data in
            let text = String(decoding: data, as: UTF8.self)
            return text.components(separatedBy: "\r\n").first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) } ?? ""
        }
    }

    /// True when both sides hold the same items (by normalised hash), each UID once.
    func converged() -> Bool {
        let l = storage(.local).contents.values.map { ContentHash.of($0) }.sorted { $0.value < $1.value }
        let r = storage(.remote).contents.values.map { ContentHash.of($0) }.sorted { $0.value < $1.value }
        let keys = storage(.local).contents.values.map { ItemContent($0).key }
        return l == r && Set(keys).count == keys.count
    }
}
