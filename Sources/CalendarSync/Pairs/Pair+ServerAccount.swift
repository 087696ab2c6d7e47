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

    /// Whether the pair's server sends a meeting's messages itself: as its facts say where they
    /// settle it (``ServerFacts/scheduling``), else as the account said when last asked; nil
    /// when it never was.
    var serverSchedules: Bool? {
        switch remoteFacts?.scheduling {
        case .always?: true
        case .never?: false
        case .asAdvertised?, nil: cachedServerAccount?.autoSchedules
        }
    }
}
