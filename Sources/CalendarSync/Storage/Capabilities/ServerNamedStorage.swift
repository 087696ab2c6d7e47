import Foundation

/// A storage that names what it creates itself (Microsoft Graph gives each event an id), so
/// that a create whose answer was lost cannot be found by the name calgw asked for. Recovery
/// from an interrupted run asks it by the item's key instead: without that, an item edited
/// after such a create would be kept twice, as a conflict between the two versions.
public protocol ServerNamedStorage: CalendarStorage {
    /// The item with key `key` (its UID) that a create made, if the storage holds one.
    func created(key: ItemKey) async throws -> StoredItem?
}
