import Foundation

extension VDirStorage {
    /// A vdir flushes its folder once per batch, writes one file per core, creates a batch of
    /// files in one call, streams its files, vouches for its listing, has a display name and
    /// color, and is files a person may edit (a UID may be written into one that has none).
    public var capabilities: StorageCapabilities {
        StorageCapabilities(
            flushing: self, concurrentWriting: self, batchCreating: self, streamingFetching: self,
            listingToken: self, collectionMetadata: self, fileBacked: self, takesAssignedUIDs: true)
    }
}

extension VDirStorage: FlushingStorage {
    /// A `syncfs` (or the fsyncs of a few files) covers every file written before it starts.
    public var flushesWhileWriting: Bool { true }
}

extension VDirStorage: ConcurrentWritingStorage {
    /// One writer per core: a batch's files are made durable together (one `syncfs`), so no
    /// write waits on its own fsync. (A first pull's batches of new files take two per core:
    /// `batchWriters`.)
    public var maximumConcurrentWrites: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }
}

extension VDirStorage: CollectionMetadataStorage {
    /// The `displayname` and `color` files; nil for either that is missing.
    public func metadata() async throws -> CollectionMetadata {
        CollectionMetadata(displayName: directory.metadata(.displayName), color: directory.metadata(.color))
    }

    /// Writes the `displayname` and `color` files for the fields given, making the folder first if
    /// allowed.
    public func setMetadata(_ metadata: CollectionMetadata) async throws {
        if options.createFolder { try directory.createIfMissing() }
        if let name = metadata.displayName { try directory.setMetadata(.displayName, name) }
        if let color = metadata.color { try directory.setMetadata(.color, color) }
    }
}
