import Foundation

/// A collection's display name and color: a vdir's `displayname` and `color` files, a CalDAV
/// collection's `DAV:displayname` and `calendar-color`.
public struct CollectionMetadata: Sendable, Hashable {
    /// The collection's display name; nil when it has none (or, to `setMetadata(_:)`, to leave it).
    public var displayName: String?
    /// The collection's color, e.g. `#FF0000FF`; nil when it has none (or, to `setMetadata(_:)`, to
    /// leave it).
    public var color: String?
    /// Metadata with these fields, nil unless given.
    public init(displayName: String? = nil, color: String? = nil) {
        self.displayName = displayName
        self.color = color
    }
}

/// A storage whose collection has a display name and color to keep in sync. Optional: a pair
/// syncs metadata only when both sides conform.
public protocol CollectionMetadataStorage: CalendarStorage {
    /// The collection's display name and color as the storage has them now.
    func metadata() async throws -> CollectionMetadata
    /// Sets the fields that are non-nil; nil fields are left as they are.
    func setMetadata(_ metadata: CollectionMetadata) async throws
}
