import Foundation
import VDir

extension VDirStorage: BatchCreatingStorage {
    /// Threads that write a batch's files: two per core, at most eight.
    ///
    /// A file's creator sleeps in the kernel for part of its work: the link that names the file
    /// waits for the folder's lock while another creator links, and a new entry or inode can
    /// wait for a metadata block the previous batch's flush is writing out. One thread per core
    /// left the cores idle then; two per core took a 100,000-event first pull 2.5-8 % less time
    /// on a fresh ext4 in three comparisons, and an account of 20 calendars about 10 % less
    /// (docs/benchmarks.md, "Two writers per core"). More gained nothing.
    var batchWriters: Int { min(8, 2 * maximumConcurrentWrites) }

    /// The files are written by `batchWriters` threads, each taking every n-th item, into the
    /// folder held open for the batch.
    public func createAll(_ items: [(data: Data, suggestedName: String)]) async -> [Result<ItemVersion, any Error>] {
        let writers = min(batchWriters, items.count)
        guard writers > 0 else { return [] }
        return await Self.offThread { [self] in
            let folder = openFolder()
            return items.mappedConcurrently(lanes: writers) { item in
                Result { try createNow(item.data, suggestedName: item.suggestedName, in: folder) }
            }
        }
    }
}
