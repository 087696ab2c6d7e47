import CalDAV
import Crypto
import Foundation
import HTTP

/// A read-only side: an iCalendar feed (`webcal://`, or an `https://…/calendar.ics`) that a
/// pair pulls into its vdir, one file per UID.
///
/// Each ``changes(since:)`` is one conditional GET (see ``FeedValidators``): a 304 (or the
/// same body again, from a server without validators) answers `.unchanged`, and the run stops
/// there. Otherwise the body is split as it arrives (``FeedSplitter``; gzip is asked for and
/// redirects followed by the HTTP client), never held whole, and every item is listed with an
/// etag that is a digest of its lines without DTSTAMP, so only events that changed are read,
/// hashed and written: a publisher that restamps every event on each export (most do) costs
/// a download and a split, not a rewrite of the vdir. An event gone
/// from the feed is gone from the listing, and the sync deletes it locally, under the usual
/// mass-deletion guard: a feed that became empty does not wipe the vdir.
///
/// The href of an item is its UID (`<uid>.ics`, or a digest of the UID when it has characters
/// unsafe in a file name), the same on every download. Writes throw ``SubscriptionError`` with
/// code `.readOnly`: a subscription pair only ever pulls.
///
/// A feed that cannot be used (an HTTP error status, an HTML page, an empty or truncated body,
/// invalid iCalendar, a body or line over its cap) throws ``SubscriptionError`` before anything
/// is planned: nothing is deleted, and the next run converges once the feed is right.
public final class SubscriptionStorage: CalendarStorage, BulkFetchingStorage, @unchecked Sendable {
    /// A feed is read whole, in one request.
    public var capabilities: StorageCapabilities { StorageCapabilities(bulkFetching: self) }

    /// Limits on what a feed may be.
    public struct Options: Sendable {
        /// The largest body accepted, after decompression. Default 256 MB.
        public var maxBodyBytes = 256 * 1024 * 1024
        /// The longest line accepted, unfolded. Default 4 MB: far beyond any event, short of a
        /// body that is one endless line.
        public var maxLineLength = 4 * 1024 * 1024

        /// The default caps: 256 MB of body, 4 MB per line.
        public init() {}
    }

    /// The feed's URL (http or https).
    public let url: URL
    /// The caps on what the feed may be.
    public let options: Options
    private let client: HTTPClient
    private let lock = NSLock()
    private var downloaded: [ItemHref: StoredItem]?

    /// - Parameters:
    ///   - url: the feed, `http://` or `https://` (a `webcal://` URL already translated).
    ///   - client: the HTTP client to fetch it with (its credentials, if the feed needs any).
    ///   - options: the caps on body and line size.
    public init(url: URL, client: HTTPClient, options: Options = Options()) {
        self.url = url
        self.client = client
        self.options = options
    }

    /// One conditional GET: `.unchanged` for a 304 or the same body again, else every item of the
    /// feed.
    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        let previous = FeedValidators(token: token)
        guard let (items, validators) = try await download(ifChangedSince: previous) else {
            return .unchanged(token ?? ChangeToken(""))
        }
        if let previous, previous.digest == validators.digest { return .unchanged(validators.token) }
        return .full(items.map(\.version), token: validators.token)
    }

    /// The items from the last download, downloading the feed first when there was none.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        var items = lock.withLock { downloaded }
        if items == nil {
            _ = try await download(ifChangedSince: nil)
            items = lock.withLock { downloaded }
        }
        return hrefs.compactMap { items?[$0] }
    }

    /// Downloads the feed, unconditionally, and hands over every item.
    public func fetchAll() async throws -> (items: [StoredItem], token: ChangeToken?) {
        guard let (items, validators) = try await download(ifChangedSince: nil) else { return ([], nil) }
        return (items, validators.token)
    }

    /// Refused: a subscription is read-only (``SubscriptionError`` `.readOnly`).
    public func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        throw readOnly()
    }

    /// Refused: a subscription is read-only (``SubscriptionError`` `.readOnly`).
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws
        -> ItemVersion
    {
        throw readOnly()
    }

    /// Refused: a subscription is read-only (``SubscriptionError`` `.readOnly`).
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        throw readOnly()
    }

    private func readOnly() -> SubscriptionError {
        SubscriptionError(
            .readOnly, "\(shownURL) is a read-only subscription; calgw cannot write to it",
            recovery: "edits to a subscribed event stay in the vdir only")
    }

    /// GETs the feed (conditionally when `previous` has validators) and splits it.
    /// - Returns: nil on 304 Not Modified; else the items and the new validators.
    func download(ifChangedSince previous: FeedValidators?) async throws -> ([StoredItem], FeedValidators)? {
        var headers: [(name: String, value: String)] = [(name: "Accept", value: "text/calendar, */*;q=0.5")]
        headers += previous?.conditionalHeaders ?? []
        let reader = FeedReader(maxBytes: options.maxBodyBytes, maxLineLength: options.maxLineLength)
        let response = try await client.send(
            HTTPRequest(method: "GET", url: url, headers: headers), streamingTo: reader)
        if response.status == 304 {
            guard previous != nil else {
                throw SubscriptionError(
                    .httpStatus, "\(shownURL) answered 304 Not Modified to a request that was not conditional")
            }
            return nil
        }
        guard response.isSuccess else {
            let reason =
                response.status == 404 || response.status == 410
                ? "the feed is not there (HTTP \(response.status))"
                : "the feed answered HTTP \(response.status)"
            throw SubscriptionError(
                .httpStatus, "\(shownURL): \(reason)",
                recovery: response.status == 403
                    ? "the feed may need credentials (username, password_command)"
                    : "check the URL; nothing was changed locally")
        }
        let (split, digest) = try reader.finish()
        var items: [StoredItem] = []
        items.reserveCapacity(split.count)
        var byHref: [ItemHref: StoredItem] = [:]
        for item in split {
            let href = Self.href(forUID: item.uid)
            let stored = StoredItem(
                version: ItemVersion(href: href, etag: ItemETag(String(item.digest.prefix(32)))), data: item.data)
            items.append(stored)
            byHref[href] = stored
        }
        lock.withLock { downloaded = byHref }
        let validators = FeedValidators(
            etag: response.header("ETag"), lastModified: response.header("Last-Modified"), digest: digest)
        return (items, validators)
    }

    /// The feed's URL as messages show it: scheme, host and last path component, without
    /// credentials, query or the rest of the path (private feed addresses carry their secret there).
    var shownURL: String {
        let last = url.lastPathComponent
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(url.scheme ?? "https")://\(url.host ?? "")\(port)"
            + (last.isEmpty || last == "/" ? "" : url.pathComponents.count > 2 ? "/…/\(last)" : "/\(last)")
    }

    /// The href of the item with `uid`: the UID itself when it is a safe file name, else a
    /// digest of it; stable across downloads and distinct for distinct UIDs.
    static func href(forUID uid: String) -> ItemHref {
        let safe =
            uid.count <= 120 && !uid.hasPrefix(".") && !uid.hasPrefix("h-")
            && uid.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.@".unicodeScalars.contains($0))
            }
        if safe { return ItemHref(uid + ".ics") }
        return ItemHref("h-" + ContentHash.hex(SHA256.hash(data: Data(uid.utf8))).prefix(40) + ".ics")
    }
}
