import Foundation

/// A storage that can tell the token a listing would have now, so a run that wrote to it can
/// keep a token that vouches for the journal (every item at the version calgw's write left)
/// and the next run with nothing changed reads no item.
///
/// A vdir's token is a hash of its listing; a single file's is its signature, given only while
/// the file still holds exactly that listing as calgw wrote it. A server cannot be asked this
/// (its token is its own), so it is listed in full after a run that wrote to it.
public protocol ListingTokenStorage: CalendarStorage {
    /// The token of the storage when it holds exactly `versions`; nil when it cannot vouch.
    func token(forListing versions: [ItemVersion]) async throws -> ChangeToken?
    /// The token of the storage when it holds what `journal` records of `side`; nil when it
    /// cannot vouch.
    func token(forJournal journal: Journal, side: Side) async throws -> ChangeToken?
}

extension ListingTokenStorage {
    /// Reads the journal's versions of `side` into one array and asks `token(forListing:)`.
    public func token(forJournal journal: Journal, side: Side) async throws -> ChangeToken? {
        try await token(forListing: try journal.versions(side))
    }
}
