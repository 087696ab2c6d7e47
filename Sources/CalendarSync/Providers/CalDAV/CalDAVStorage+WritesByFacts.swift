import CalDAV
import Foundation
import HTTP

/// What a server's facts change in how writes are made: a create asks first where
/// `If-None-Match` is ignored, a deletion looks at the version first where `If-Match` is, and
/// copies carry the header that keeps the server from scheduling them.
extension CalDAVStorage {
    /// Tells the client, before a write, what the server's facts say of writes: a server that
    /// overwrites whatever `If-None-Match` says (SOGo) is asked first whether a name is free;
    /// one that takes `Schedule-Reply: F` as its switch (sabre/dav) gets it on every copy; one
    /// that rewrites what it stores behind an ETag (SOGo) has each write read back.
    func prepareWrites() {
        let facts = self.facts
        if !facts.addedProperties.isEmpty { client.traits.readBackWrites() }
        if !facts.honoursIfNoneMatch { client.traits.askBeforeCreating() }
        if facts.meetingCopies == .scheduleReply { client.traits.switchSchedulingWithScheduleReply() }
    }
}

extension CalDAVStorage {
    /// On a server that deletes whatever version is there, whatever `If-Match` says
    /// (``ServerFacts/honoursIfMatchOnDelete``: SOGo), the version is looked at before the
    /// deletion: one that changed since it was read is not deleted, as a 412 would have kept it.
    /// A change made between the look and the deletion still goes unseen; the look narrows that
    /// to one request's time from a whole run's.
    /// - Throws: ``StorageError/preconditionFailed(href:)`` when the version is no longer `etag`.
    func checkVersion(_ member: (href: Href, url: URL), is etag: ItemETag, href: ItemHref) async throws {
        guard !facts.honoursIfMatchOnDelete else { return }
        let current: ETag
        do { current = try await client.etag(of: member.url) } catch let error as HTTPError
            where error.code == .notFound
        {
            throw StorageError.preconditionFailed(href: href)
        }
        guard current.value == etag.value else { throw StorageError.preconditionFailed(href: href) }
    }
}
