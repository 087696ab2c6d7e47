import GRDB

/// Where an item lives in its storage: a vdir's file name, a server's href (its path), a
/// single file's UID-derived name. Opaque to the planner, which only compares them.
///
/// A type of its own so that an href cannot be passed where an etag, a UID or a path is
/// meant. In JSON and in the journal it is plain text.
public struct ItemHref: TextIdentifier {
    /// The href as its storage gave it.
    public var value: String

    /// The href `value`.
    public init(_ value: String) { self.value = value }
}

/// An item's version as its storage tells it: a server's ETag, a file's stat signature. Two
/// reads with the same etag saw the same bytes; writes are conditional on it.
///
/// A type of its own so that an etag cannot be passed where an href is meant. In JSON and in
/// the journal it is plain text.
public struct ItemETag: TextIdentifier {
    /// The etag as its storage gave it (a server's with its quotes).
    public var value: String

    /// The etag `value`.
    public init(_ value: String) { self.value = value }
}

extension ItemHref: DatabaseValueConvertible {
    /// The href's text, as the journal stores it.
    public var databaseValue: DatabaseValue { value.databaseValue }
    /// The href of a text column; nil for another value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ItemHref? {
        String.fromDatabaseValue(dbValue).map { ItemHref($0) }
    }
}

extension ItemETag: DatabaseValueConvertible {
    /// The etag's text, as the journal stores it.
    public var databaseValue: DatabaseValue { value.databaseValue }
    /// The etag of a text column; nil for another value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ItemETag? {
        String.fromDatabaseValue(dbValue).map { ItemETag($0) }
    }
}
