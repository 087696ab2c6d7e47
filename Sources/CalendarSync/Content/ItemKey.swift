/// An item's identity across both sides and runs: its UID, or for an object without one a
/// stable key (`nouid:` and the content hash it had when first seen; the journal keeps it
/// from then on, tied to the item's hrefs).
public struct ItemKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The key as text: the UID, or `nouid:` and a hash.
    public var value: String
    /// The key whose text is `value`.
    public init(_ value: String) { self.value = value }

    /// The key of an object with this UID.
    public static func uid(_ uid: String) -> ItemKey { ItemKey(uid) }

    /// The key of a UID-less object first seen with this content.
    public static func uidless(_ hash: ContentHash) -> ItemKey { ItemKey("nouid:" + hash.value) }

    /// True for the key of an object without a UID (`nouid:`).
    public var isUIDLess: Bool { value.hasPrefix("nouid:") }
    /// The key as text.
    public var description: String { value }
    /// Orders by the key's text.
    public static func < (a: ItemKey, b: ItemKey) -> Bool { a.value < b.value }
}
