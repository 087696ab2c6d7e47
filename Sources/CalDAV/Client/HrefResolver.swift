import Foundation
import HTTP

/// Turns hrefs from server responses into canonical `Href`s and URLs, trusting none of them:
/// an href is resolved relative to the URL it came from, must stay on the same origin, and
/// (for members) inside the collection; `..` and `.` segments are refused, encoded or not, and
/// so are control characters (`%00`) and hrefs longer than `maximumLength`.
public struct HrefResolver: Sendable {
    /// The collection (or any base URL) hrefs are resolved against.
    public let base: URL
    private let basePath: String
    /// `basePath` ending with a slash: the start of every member's path.
    private let memberPrefix: String
    /// Whether `memberPrefix` is a plain path (``isPlainPath(_:)``): then an href that starts
    /// with it is plain when the rest is.
    private let memberPrefixIsPlain: Bool

    /// The longest href accepted, in bytes; real servers stay far below it.
    public static let maximumLength = 4096

    /// A resolver for hrefs found in answers about `base`.
    public init(base: URL) {
        self.base = base
        self.basePath = Self.canonicalPath(Self.decodedPath(of: base) ?? "/")
        self.memberPrefix = basePath.hasSuffix("/") ? basePath : basePath + "/"
        self.memberPrefixIsPlain = Self.isPlainPath(memberPrefix)
    }

    /// The canonical `Href` of `url`'s path.
    public static func href(of url: URL) -> Href {
        // A path of allowed bytes only (no escape, no empty or dot segment) is its own canonical
        // form; taking it apart and escaping it again was a twentieth of a push's processor time.
        let path = url.path(percentEncoded: true)
        if isPlainPath(path) { return Href(canonicalPath: path) }
        return Href(canonicalPath: canonicalPath(decodedPath(of: url) ?? "/"))
    }

    /// The canonical form of an absolute path written either way (`/cal/a%40b/` and `/cal/a@b/`
    /// give `/cal/a@b/`), for a path kept outside a server's answer (a file calgw wrote, a
    /// config); a path with an invalid escape is kept as it is.
    public static func canonical(path: String) -> String {
        if isPlainPath(path) { return path }
        guard let decoded = path.removingPercentEncoding else { return path }
        return canonicalPath(decoded)
    }

    /// Resolves `raw` (relative or absolute) on the same origin as `base`.
    /// - Throws: `HTTPError.unsafeHref` for another origin, a dot segment, a control
    ///   character or too long an href.
    public func resolve(_ raw: String) throws -> (href: Href, url: URL) {
        if Self.isPlainPath(raw) { return (Href(canonicalPath: raw), Self.url(for: raw, on: base)) }
        let trimmed = raw.trimmingWhitespaceAndNewlines()
        guard trimmed.utf8.count <= Self.maximumLength else {
            throw unsafe(raw, "is \(trimmed.utf8.count) bytes long, over the \(Self.maximumLength) byte limit")
        }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw unsafe(raw, "contains a control character")
        }
        guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL ?? Self.lenientURL(trimmed, base: base)
        else {
            throw unsafe(raw, "is not a URL")
        }
        guard HTTPClient.sameOrigin(url, base) else { throw unsafe(raw, "points at another server") }
        guard let decoded = Self.decodedPath(of: url) else { throw unsafe(raw, "has an invalid percent-encoding") }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { $0 == ".." || $0 == "." }) { throw unsafe(raw, "contains a dot segment") }
        if decoded.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw unsafe(raw, "contains an encoded control character")
        }
        let path = Self.canonicalPath(decoded)
        return (Href(canonicalPath: path), Self.url(for: path, on: base))
    }

    /// True for the href nearly every server sends: an absolute path of characters that need no
    /// encoding (`allowed`, so no `%`), without `//` or dot segments, within the length limit. It
    /// is its own canonical form, so the general resolution (URL parsing, decoding, encoding
    /// again: most of the cost of reading a large multistatus) is skipped; its checks would all pass.
    static func isPlainPath(_ raw: String) -> Bool {
        // Over the string's own bytes when it has them in one piece, as parsed hrefs do.
        raw.utf8.withContiguousStorageIfAvailable { isPlainPath($0) }
            ?? Array(raw.utf8).withUnsafeBufferPointer { isPlainPath($0) }
    }

    private static func isPlainPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumLength, bytes[0] == UInt8(ascii: "/") else { return false }
        return isPlainRest(UnsafeBufferPointer(rebasing: bytes[1...]))
    }

    /// Whether the bytes after a slash continue a plain path: allowed bytes in segments none
    /// empty nor `.` or `..` (but the last, after a final slash, empty). In two passes, every
    /// byte allowed, then the segments: one pass that did both took some 18 instructions a byte.
    private static func isPlainRest(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count, slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        for byte in bytes where !isAllowed(byte) { return false }
        var start = 0
        while start < n {
            var end = start
            while end < n, bytes[end] != slash { end += 1 }
            switch end - start {
            case 0: return false  // `//`
            case 1: if bytes[start] == dot { return false }
            case 2: if bytes[start] == dot && bytes[start + 1] == dot { return false }
            default: break
            }
            start = end + 1
        }
        return true
    }

    /// The bytes of `allowed`: unreserved and sub-delimiters, `/`, `:` and `@`. (A bit each in
    /// two literal words, not a table: a static table was initialised-or-not checked for every
    /// byte of every href, and a switch over the ranges took some 25 instructions a byte.)
    @inline(__always)
    private static func isAllowed(_ byte: UInt8) -> Bool {
        // Bytes 0–63: `! $ & ' ( ) * + , - . /`, the digits, `: ; =`.
        let below64: UInt64 = 0x2FFF_FFD2_0000_0000
        // Bytes 64–127: `@`, the letters, `_`, `~`.
        let from64: UInt64 = 0x47FF_FFFE_87FF_FFFF
        let bit = UInt64(1) &<< UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return below64 & bit != 0
        case 1: return from64 & bit != 0
        default: return false
        }
    }

    /// Resolves `raw` and checks it names a member inside the collection `base`.
    /// - Returns: nil for the collection itself (with or without its trailing slash).
    /// - Throws: `HTTPError.unsafeHref` outside the collection.
    public func member(_ raw: String) throws -> (href: Href, url: URL)? {
        let resolved = try resolve(raw)
        return try isMember(resolved.href, raw) ? resolved : nil
    }

    /// `member(_:)` for a caller that needs the href only: the href most servers send is
    /// checked without building its URL, which is most of what resolving it costs.
    public func memberHref(_ raw: String) throws -> Href? {
        if isPlainMemberPath(raw) { return Href(canonicalPath: raw) }
        let href = Self.isPlainPath(raw) ? Href(canonicalPath: raw) : try resolve(raw).href
        return try isMember(href, raw) ? href : nil
    }

    /// Whether `raw` is the collection's plain path and more, the rest plain too: the href of
    /// nearly every member. It is then a plain path inside the collection, found without
    /// checking the collection's part of it again (some 60 bytes an href) or comparing strings.
    private func isPlainMemberPath(_ raw: String) -> Bool {
        guard memberPrefixIsPlain else { return false }
        var raw = raw, prefix = memberPrefix
        return raw.withUTF8 { raw in
            prefix.withUTF8 { prefix in
                guard raw.count > prefix.count, raw.count <= Self.maximumLength,
                    memcmp(raw.baseAddress!, prefix.baseAddress!, prefix.count) == 0
                else { return false }
                return Self.isPlainRest(UnsafeBufferPointer(rebasing: raw[prefix.count...]))
            }
        }
    }

    /// True for an href inside the collection, false for the collection itself.
    /// - Throws: `HTTPError.unsafeHref` for one outside it.
    private func isMember(_ href: Href, _ raw: String) throws -> Bool {
        let collection = memberPrefix, path = href.path
        // A canonical path is ASCII: one shorter than the collection's can only be it without
        // its slash, and a member's (longer) is not joined to a slash to find that out.
        if path == collection || (path.utf8.count < collection.utf8.count && path + "/" == collection) { return false }
        guard path.hasPrefix(collection) else { throw unsafe(raw, "is outside the collection \(collection)") }
        return true
    }

    /// The URL of a canonical href on `base`'s origin.
    public func url(for href: Href) -> URL { Self.url(for: href.path, on: base) }

    static func url(for path: String, on base: URL) -> URL {
        var parts = URLComponents()
        parts.scheme = base.scheme
        parts.host = base.host
        parts.port = base.port
        parts.percentEncodedPath = path
        return parts.url ?? base
    }

    private func unsafe(_ raw: String, _ why: String) -> HTTPError {
        HTTPError(
            .unsafeHref, "the server listed the href \(Self.printable(raw)), which \(why)",
            recovery: "this is a server bug or an attack; calgw wrote nothing for it", url: base)
    }

    /// `raw` for a message: control characters as `\u{..}`, cut after 200 characters.
    private static func printable(_ raw: String) -> String {
        var out = ""
        for scalar in raw.unicodeScalars.prefix(200) {
            out +=
                scalar.properties.generalCategory == .control
                ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return raw.unicodeScalars.count > 200 ? out + "…" : out
    }

    /// Hrefs with characters `URL(string:)` refuses (spaces, `@` in odd places): encode first.
    private static func lenientURL(_ raw: String, base: URL) -> URL? {
        raw.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.union(CharacterSet(charactersIn: "%:")))
            .flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    }

    static func decodedPath(of url: URL) -> String? {
        let encoded = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return (encoded.isEmpty ? "/" : encoded).removingPercentEncoding
    }

    private static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        set.insert(charactersIn: "/!$&'()*+,;=:@")
        return set
    }()

    static func canonicalPath(_ decoded: String) -> String {
        var path = decoded.addingPercentEncoding(withAllowedCharacters: allowed) ?? decoded
        while path.contains("//") { path = path.replacingOccurrences(of: "//", with: "/") }
        return path.hasPrefix("/") ? path : "/" + path
    }
}
