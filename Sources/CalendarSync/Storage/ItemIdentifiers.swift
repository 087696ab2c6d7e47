import GRDB

/// Where an item lives in its storage: a vdir's file name, a server's href (its path), a
/// single file's UID-derived name. Opaque to the planner, which only compares them.
///
/// A type of its own so that an href cannot be passed where an etag, a UID or a path is
/// meant. In JSON and in the journal it is plain text.
public struct ItemHref: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The href as its storage gave it.
    public var value: String

    public init(_ value: String) { self.value = value }
    public init(stringLiteral value: String) { self.value = value }

    public var description: String { value }
    public static func < (a: ItemHref, b: ItemHref) -> Bool { a.value < b.value }

    public init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// An item's version as its storage tells it: a server's ETag, a file's stat signature. Two
/// reads with the same etag saw the same bytes; writes are conditional on it.
///
/// A type of its own so that an etag cannot be passed where an href is meant. In JSON and in
/// the journal it is plain text.
public struct ItemETag: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The etag as its storage gave it (a server's with its quotes).
    public var value: String

    public init(_ value: String) { self.value = value }
    public init(stringLiteral value: String) { self.value = value }

    public var description: String { value }

    public init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension ItemHref: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { value.databaseValue }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ItemHref? {
        String.fromDatabaseValue(dbValue).map { ItemHref($0) }
    }
}

extension ItemETag: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { value.databaseValue }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ItemETag? {
        String.fromDatabaseValue(dbValue).map { ItemETag($0) }
    }
}
