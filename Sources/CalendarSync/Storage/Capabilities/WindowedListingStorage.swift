import Foundation

/// A storage whose full listing covers only a window of time (Microsoft Graph lists a calendar
/// only over a window of at most 1,825 days): an item missing from such a listing may have been
/// deleted, or may have left the window as time passed, or lie beyond it (an event made in the
/// vdir for a year ahead). The scanner asks for the items the journal knows and a full listing
/// left out, so that an item outside the window is kept, not taken for a deletion.
public protocol WindowedListingStorage: CalendarStorage {
    /// The versions of those of `hrefs` the storage still holds; the others are gone.
    func versions(of hrefs: [ItemHref]) async throws -> [ItemVersion]
}

extension StorageChanges {
    /// The listing with the items `journal` knows and a full listing of a windowed `storage`
    /// left out asked for one by one: those still held join the listing; the others stay out,
    /// deleted. Any other listing, or another storage's, is returned as it is.
    func completed(
        by storage: (any WindowedListingStorage)?, knowing journal: some Sequence<ItemHref>
    ) async throws -> StorageChanges {
        guard let storage, case .full(let versions, let token) = self else { return self }
        let listed = Set(versions.lazy.map(\.href))
        let missing = journal.filter { !listed.contains($0) }
        guard !missing.isEmpty else { return self }
        return .full(versions + (try await storage.versions(of: missing)), token: token)
    }
}
