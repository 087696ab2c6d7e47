import Foundation

/// What a subscription remembers of the feed between runs, kept as its change token: the
/// server's validators for a conditional GET, and a digest of the body.
///
/// With an `ETag` the next GET sends `If-None-Match`, with a `Last-Modified` it sends
/// `If-Modified-Since`, so an unchanged feed costs one request answered 304 and no parsing. A
/// server that sends neither (or ignores them, answering 200 every time) is caught by the
/// digest: the same bytes again are reported unchanged, so nothing is planned or written.
struct FeedValidators: Codable, Sendable, Equatable {
    /// The response's ETag header, as sent.
    var etag: String?
    /// The response's Last-Modified header, as sent.
    var lastModified: String?
    /// SHA-256 of the body (after decompression), hex.
    var digest: String

    /// The validators a token holds; nil for a token this type did not write.
    init?(token: ChangeToken?) {
        guard let token, let data = token.value.data(using: .utf8),
            let decoded = try? JSONDecoder().decode(FeedValidators.self, from: data)
        else { return nil }
        self = decoded
    }

    init(etag: String?, lastModified: String?, digest: String) {
        self.etag = etag
        self.lastModified = lastModified
        self.digest = digest
    }

    /// The token that carries these validators.
    var token: ChangeToken {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return ChangeToken(String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self))
    }

    /// The conditional headers for the next GET.
    var conditionalHeaders: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append((name: "If-None-Match", value: etag)) }
        if let lastModified { headers.append((name: "If-Modified-Since", value: lastModified)) }
        return headers
    }
}
