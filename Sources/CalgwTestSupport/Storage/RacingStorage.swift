import CalendarSync
import Foundation

/// A storage that hands every call to `inner` and, once, just before its first `fetch` or its
/// first `update`, runs `race`: another writer changing the storage at the worst moment for a
/// run (between its listing and its read, or between its read and its write). Race tests use it
/// to check that a run never writes over, nor records as synced, what changed under it.
///
/// It declares no capabilities of its own (a wrapped vdir is seen as a plain storage).
///
/// ```swift
/// let racing = RacingStorage(inner: remote, .beforeFirstUpdate) { remote.put("a.ics", theirEdit) }
/// let report = try await SyncEngine(local: local, remote: racing, journal: journal).run()
/// ```
public final class RacingStorage: CalendarStorage, @unchecked Sendable {
    /// When the race runs.
    public enum Moment: Sendable {
        /// After the run's listing, before it reads anything.
        case beforeFirstFetch
        /// After the run's reads, before its first conditional write.
        case beforeFirstUpdate
    }

    /// The storage every call goes to.
    public let inner: any CalendarStorage
    /// When `race` runs.
    public let moment: Moment
    private let race: Locked<(() -> Void)?>

    /// Wraps `inner` and runs `race` once, at `moment`.
    public init(inner: any CalendarStorage, _ moment: Moment, race: @escaping () -> Void) {
        self.inner = inner
        self.moment = moment
        self.race = Locked(race)
    }

    /// Runs the race if it is due at `now` and has not run yet.
    private func raceIfDue(_ now: Moment) {
        guard now == moment else { return }
        var pending: (() -> Void)?
        race.mutate {
            pending = $0; $0 = nil
        }
        pending?()
    }

    /// The inner storage's listing.
    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        try await inner.changes(since: token)
    }

    /// The inner storage's items, after the race when it is due before the first fetch.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        raceIfDue(.beforeFirstFetch)
        return try await inner.fetch(hrefs, for: intent)
    }

    /// Creates in the inner storage.
    public func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        try await inner.create(data, suggestedName: suggestedName, as: intent)
    }

    /// Updates in the inner storage, after the race when it is due before the first update.
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws
        -> ItemVersion
    {
        raceIfDue(.beforeFirstUpdate)
        return try await inner.update(href: href, data: data, ifMatch: etag, as: intent)
    }

    /// Deletes in the inner storage.
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        try await inner.delete(href: href, ifMatch: etag, as: intent)
    }
}
