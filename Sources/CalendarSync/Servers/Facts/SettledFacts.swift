import CalDAV
import Foundation

/// A storage's or directory's server facts, worked out once they can no longer change: at
/// once when the config names the product or the URL shows it, else from the first answer
/// that names the server (before it, ``ServerFacts/generic`` is given and nothing is kept).
final class SettledFacts: @unchecked Sendable {
    private let lock = NSLock()
    private var settled: ServerFacts?
    private let product: ServerProduct?
    private let url: URL

    /// The facts of the server at `url`, of `product` when the config names one.
    init(product: ServerProduct?, url: URL) {
        self.product = product
        self.url = url
        if let product, let named = ServerFacts.named(product.name) {
            settled = named
        } else if ServerFacts.productName(url: url, identity: ServerIdentity()) != nil {
            settled = ServerFacts.detected(url: url)
        }
    }

    /// The facts, given what `traits` has seen of the server's answers so far.
    func facts(_ traits: ServerTraits) -> ServerFacts {
        if let known = lock.withLock({ settled }) { return known }
        let identity = traits.identity
        let facts = ServerFacts.detected(url: url, identity: identity)
        if !identity.isEmpty { lock.withLock { settled = facts } }
        return facts
    }
}
