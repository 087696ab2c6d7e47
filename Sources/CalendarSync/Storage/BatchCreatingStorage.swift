import Foundation

/// A storage that creates many items in one call for less than one call each costs.
///
/// A first pull creates every item of a collection; one hop to a vdir's I/O threads per file,
/// and a task and continuation around each, cost calgw more than the file itself does.
public protocol BatchCreatingStorage: CalendarStorage {
    /// Creates each item under its suggested name, as `create(_:suggestedName:)` does.
    /// - Returns: the outcome of each item, in order: a name already taken fails with
    ///   `StorageError.alreadyExists`, as in `create`.
    func createAll(_ items: [(data: Data, suggestedName: String)]) async -> [Result<ItemVersion, any Error>]
}

extension VDirStorage: BatchCreatingStorage {
    /// The files are written by one thread per core (`maximumConcurrentWrites`), each taking
    /// every n-th item, into the folder held open for the batch.
    public func createAll(_ items: [(data: Data, suggestedName: String)]) async -> [Result<ItemVersion, any Error>] {
        let writers = min(maximumConcurrentWrites, items.count)
        guard writers > 0 else { return [] }
        return await Self.offThread { [self] in
            let folder = openFolder()
            return [Result<ItemVersion, any Error>](unsafeUninitializedCapacity: items.count) { buffer, count in
                nonisolated(unsafe) let base = buffer.baseAddress!
                DispatchQueue.concurrentPerform(iterations: writers) { writer in
                    for i in stride(from: writer, to: items.count, by: writers) {
                        (base + i).initialize(to: Result { try createNow(items[i].data, suggestedName: items[i].suggestedName, in: folder) })
                    }
                }
                count = items.count
            }
        }
    }
}
