import Foundation

/// The hrefs a run's listings of a collection showed, kept as digests: a create is not sent to
/// a name the server is known to hold. A server that honours `If-None-Match: *` would refuse
/// it anyway; one that ignores the header (Google's CalDAV guide supports no `If*` header but
/// If-Match) would replace another client's item with it.
final class ListedNames: @unchecked Sendable {
    private let lock = NSLock()
    private var digests: Set<StringDigest> = []

    /// Notes the hrefs listed (canonical paths).
    func add<S: Sequence>(_ hrefs: S) where S.Element == String {
        let new = hrefs.map(StringDigest.init)
        lock.withLock { digests.formUnion(new) }
    }

    /// Notes one href listed, as its digest (a streamed answer notes each member as it comes).
    func add(_ digest: StringDigest) {
        lock.withLock { _ = digests.insert(digest) }
    }

    /// Whether a listing of this run showed `href`.
    func contains(_ href: String) -> Bool {
        let digest = StringDigest(href)
        return lock.withLock { digests.contains(digest) }
    }
}
