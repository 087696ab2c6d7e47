import Foundation

/// What a storage can do beyond the ``CalendarStorage`` contract, declared by the storage
/// itself: each field is the storage seen through one capability, or nil when it lacks it.
/// The engine, the scanner and the executor ask this value, never the storage's type, so a
/// new kind of storage is one type and one declaration.
///
/// ```swift
/// extension VDirStorage {
///     public var capabilities: StorageCapabilities {
///         StorageCapabilities(flushing: self, concurrentWriting: self, batchCreating: self, ...)
///     }
/// }
/// ```
public struct StorageCapabilities: Sendable {
    /// Holds writes back and makes them durable on `flush()` (see ``FlushingStorage``).
    public var flushing: (any FlushingStorage)?
    /// Takes several writes at once (see ``ConcurrentWritingStorage``).
    public var concurrentWriting: (any ConcurrentWritingStorage)?
    /// Creates many items in one call (see ``BatchCreatingStorage``).
    public var batchCreating: (any BatchCreatingStorage)?
    /// Hands over every item with its bytes in one pass (see ``BulkFetchingStorage``).
    public var bulkFetching: (any BulkFetchingStorage)?
    /// Hands over every item in batches while still reading (see ``StreamingFetchingStorage``).
    public var streamingFetching: (any StreamingFetchingStorage)?
    /// Tells the token a listing would have now (see ``ListingTokenStorage``).
    public var listingToken: (any ListingTokenStorage)?
    /// Lists only a window of time, so that an item missing from its listing is asked for
    /// before it counts as deleted (see ``WindowedListingStorage``).
    public var windowedListing: (any WindowedListingStorage)?
    /// Names what it creates itself: a lost create is found by key (see ``ServerNamedStorage``).
    public var serverNamed: (any ServerNamedStorage)?
    /// Has a display name and color to keep in sync (see ``CollectionMetadataStorage``).
    public var collectionMetadata: (any CollectionMetadataStorage)?
    /// Keeps its items in files a person may edit (see ``FileBackedStorage``).
    public var fileBacked: (any FileBackedStorage)?
    /// May keep another version than the bytes written (see ``RewritingStorage``).
    public var rewriting: (any RewritingStorage)?
    /// Has things to tell the person about its writes (see ``NotingStorage``).
    public var noting: (any NotingStorage)?
    /// Leaves the organizer's changes in the schedule Inbox for the client to apply (see
    /// ``ScheduleInboxStorage``).
    public var scheduleInbox: (any ScheduleInboxStorage)?
    /// Holds items a person wrote without a UID, into which calgw may write one before it
    /// copies them (a vdir's files, a single file's events); a server's items keep theirs.
    public var takesAssignedUIDs: Bool
    /// The account may not change its items (a calendar shared read-only), as its last listing
    /// said: a run then writes nothing to it and keeps the vdir's changes (see
    /// ``SyncPolicy/remoteIsReadOnly``).
    public var isReadOnly: Bool
    /// Whether `isReadOnly` is known rather than assumed: false for a calendar whose listing did
    /// not say what the account may do there (a server withholding `current-user-privilege-set`).
    public var knowsWriteAccess: Bool
    /// Copies uploaded here must mark each attendee and the organizer `SCHEDULE-AGENT=CLIENT`,
    /// or the server invites people for them: it schedules implicitly and honours no request
    /// header that asks it not to (DAViCal). The mark is stored with the copy; in a meeting the
    /// account attends, the storage keeps it on the ORGANIZER alone
    /// (``CalDAVStorage/storedCopyForm(_:as:)``).
    public var marksCopiesClientScheduled: Bool

    /// The capabilities given; none, writable and with known access, unless said.
    public init(
        flushing: (any FlushingStorage)? = nil, concurrentWriting: (any ConcurrentWritingStorage)? = nil,
        batchCreating: (any BatchCreatingStorage)? = nil, bulkFetching: (any BulkFetchingStorage)? = nil,
        streamingFetching: (any StreamingFetchingStorage)? = nil, listingToken: (any ListingTokenStorage)? = nil,
        windowedListing: (any WindowedListingStorage)? = nil, serverNamed: (any ServerNamedStorage)? = nil,
        collectionMetadata: (any CollectionMetadataStorage)? = nil, fileBacked: (any FileBackedStorage)? = nil,
        rewriting: (any RewritingStorage)? = nil, noting: (any NotingStorage)? = nil,
        scheduleInbox: (any ScheduleInboxStorage)? = nil, takesAssignedUIDs: Bool = false, isReadOnly: Bool = false,
        knowsWriteAccess: Bool = true,
        marksCopiesClientScheduled: Bool = false
    ) {
        self.flushing = flushing
        self.concurrentWriting = concurrentWriting
        self.batchCreating = batchCreating
        self.bulkFetching = bulkFetching
        self.streamingFetching = streamingFetching
        self.listingToken = listingToken
        self.windowedListing = windowedListing
        self.serverNamed = serverNamed
        self.collectionMetadata = collectionMetadata
        self.fileBacked = fileBacked
        self.rewriting = rewriting
        self.noting = noting
        self.scheduleInbox = scheduleInbox
        self.takesAssignedUIDs = takesAssignedUIDs
        self.isReadOnly = isReadOnly
        self.knowsWriteAccess = knowsWriteAccess
        self.marksCopiesClientScheduled = marksCopiesClientScheduled
    }
}
