import Foundation

extension VDirStorage: ListingTokenStorage {
    /// The hash of `versions`: it equals the next listing's token exactly when the folder holds
    /// those files at those signatures.
    public func token(forListing versions: [ItemVersion]) async throws -> ChangeToken? { Self.token(for: versions) }

    /// The hash of the journal's versions, read through a cursor in the folder's order: after
    /// a first sync of 100,000 items, an array of them was the run's last peak of memory.
    public func token(forJournal journal: Journal, side: Side) async throws -> ChangeToken? {
        var listing = ListingHash()
        try journal.forEachVersionText(side) { listing.add(href: $0, etag: $1) }
        return listing.token
    }
}
