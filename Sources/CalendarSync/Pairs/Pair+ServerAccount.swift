import Foundation
import VDir

extension Pair {
    /// What the pair's server says of the account (its calendar addresses, whether it
    /// schedules), asked now; nil when the remote is neither a CalDAV server nor a Graph mailbox.
    /// - Throws: ``ConnectionError`` when no client can be made; the server's error (an
    ///   ``ExplainedError``) when it cannot be asked.
    public func askServerAccount() async throws -> ServerAccount? {
        try await directory()?.account()
    }

    /// The account as last asked of the server (kept in ``accountCache``); nil when never
    /// asked or unreadable.
    public var cachedServerAccount: ServerAccount? {
        guard let data = try? Data(contentsOf: accountCache) else { return nil }
        return try? JSONDecoder().decode(ServerAccount.self, from: data)
    }

    /// Keeps `account` for the pair's next commands, written atomically beside the journal; a
    /// cache that cannot be written only costs the next command the same questions.
    public func cacheServerAccount(_ account: ServerAccount) {
        guard let data = try? JSONEncoder().encode(account) else { return }
        try? FileManager.default.createDirectory(
            at: accountCache.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write([UInt8](data), to: accountCache)
    }
}
