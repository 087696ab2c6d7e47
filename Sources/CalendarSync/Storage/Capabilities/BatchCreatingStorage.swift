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
