import Foundation

extension CalDAVStorage {
    /// A CalDAV collection takes writes in parallel where the server is faster for them, hands
    /// over every item in one query (or streamed), has a display name and color, and may keep
    /// a meeting otherwise than it was written; it is read-only when its last listing said the
    /// account may not write there.
    public var capabilities: StorageCapabilities {
        StorageCapabilities(
            concurrentWriting: self, bulkFetching: self, streamingFetching: self, collectionMetadata: self,
            rewriting: self, noting: self, scheduleInbox: self,
            isReadOnly: lastInfo.writable == false || primedInfo.writable == false,
            knowsWriteAccess: lastInfo.writable != nil || primedInfo.writable != nil,
            marksCopiesClientScheduled: copiesNeedClientAgent)
    }
}

extension CalDAVStorage: ConcurrentWritingStorage {
    /// Up to four requests at once, if the server is faster for them: one that handles each
    /// request on its own core takes writes faster so, one that serialises them (Radicale) or
    /// slows down under them (Xandikos) does not, and is left one at a time.
    /// `CALGW_WRITE_CONCURRENCY` fixes the number instead.
    public var maximumConcurrentWrites: Int { fixedWriteConcurrency ?? 4 }
    /// True unless `CALGW_WRITE_CONCURRENCY` fixes the number: the executor finds it by trying.
    public var measuresConcurrentWrites: Bool { fixedWriteConcurrency == nil }
}

extension CalDAVStorage: RewritingStorage {
    /// The server's bytes for the last write at `href`, when it stored other than what was sent.
    public func takeRewrittenVersion(at href: ItemHref) -> StoredItem? { rewritten.take(href) }

    /// The same content, or the same once the properties the server's facts say it adds to
    /// everything it stores are taken out (SOGo's `CLASS:PUBLIC`). The server is asked for its
    /// collection first when no answer so far has named it (SOGo names itself in PROPFIND's
    /// answers, not REPORT's, and recovery reads by REPORT).
    public func holds(_ stored: Data, afterWriting written: ContentHash) async throws -> Bool {
        if ContentHash.of(stored) == written { return true }
        if client.traits.identity.isEmpty { _ = try await client.collectionInfo(collection, tokens: []) }
        let added = facts.addedProperties
        return !added.isEmpty && ContentHash.of(ServerAdditions.removing(lines: added, from: stored)) == written
    }
}

extension CalDAVStorage: NotingStorage {
    /// What the person is to hear of this run's writes, once.
    public func takeNotes() -> [String] { (unreadable.takeNote().map { [$0] } ?? []) + notes.take() }
    /// What the server did with the person's deletions of meetings, once.
    public func takeDeletionScheduling() -> [String: DeletionScheduling] { deletions.take() }
}

extension CalDAVStorage {
    /// The server stores a copy of a meeting without scheduling only when its attendees say
    /// `SCHEDULE-AGENT=CLIENT`, and takes no request header to skip scheduling for one write
    /// (``ServerFacts/MeetingCopies/scheduleAgentClient``): copies are marked, and the
    /// person's answers and deletions take the ways that work there.
    var copiesNeedClientAgent: Bool { facts.meetingCopies == .scheduleAgentClient }
}
