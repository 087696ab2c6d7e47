import Foundation

/// The intents the executor records, one constructor per kind of write, so that a write on its
/// own, a batch's and a conflict's say the same of the same write.
extension Intent {
    /// Creating `key` on `side` under `name` (a stem, as asked of the storage).
    /// - Parameter source: the other side's version when the content is a copy of it.
    static func creating(
        _ key: ItemKey, named name: String, on side: Side, hash: ContentHash, copying source: SideRecord?
    ) -> Intent {
        Intent(
            key: key, operation: .create, side: side, href: ItemHref(name), ifMatch: nil, newHash: hash, source: source)
    }

    /// Replacing `target` on `side` with content of `hash`, on the condition of its etag.
    /// - Parameter source: the other side's version when the content is a copy of it.
    static func updating(_ target: SideItem, on side: Side, hash: ContentHash, copying source: SideRecord?) -> Intent {
        Intent(
            key: target.key, operation: .update, side: side, href: target.href, ifMatch: target.etag, newHash: hash,
            source: source)
    }

    /// Deleting `target` from `side`, on the condition of its etag.
    static func deleting(_ target: SideItem, on side: Side) -> Intent {
        Intent(key: target.key, operation: .delete, side: side, href: target.href, ifMatch: target.etag, newHash: nil)
    }
}
