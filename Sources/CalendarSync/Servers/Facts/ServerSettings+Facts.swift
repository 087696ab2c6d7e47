import CalDAV
import Foundation

extension ServerSettings {
    /// The facts of the server at `url` (nil: not known yet) that answered with `identity`:
    /// those of the product the config names, else those its URL and answers show.
    public func facts(at url: URL?, identity: ServerIdentity = ServerIdentity()) -> ServerFacts {
        if let product, let named = ServerFacts.named(product.name) { return named }
        return .detected(url: url, identity: identity)
    }
}
