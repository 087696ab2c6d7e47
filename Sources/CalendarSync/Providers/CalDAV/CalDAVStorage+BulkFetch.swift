import CalDAV
import Foundation
import HTTP

extension CalDAVStorage: BulkFetchingStorage {
    /// Every member with its bytes from one `calendar-query` REPORT asking for
    /// `calendar-data` of every calendar object (RFC 4791 §7.8), instead of a listing and
    /// then multigets of 100. The answer is read as it arrives (`MultistatusReader`), so
    /// neither the body nor its XML tree is ever held whole: only the items. The change token
    /// is read first (the sync-token alone, see `tokenInfo()`), so a change made during the
    /// query shows up again next time. An answer that finds nothing is not believed until a
    /// listing agrees (``emptyQueryDisbelieved()``).
    /// - Throws: `HTTPError` when the server refuses the query or its answer cannot be read.
    public func fetchAll() async throws -> (items: [StoredItem], token: ChangeToken?) {
        let token = Self.changeToken(of: try await tokenInfo())
        if !facts.queriesFindEverything { return try await listAndFetch() }
        let request = HTTPRequest(
            method: "REPORT", url: collection,
            headers: [("Depth", "1"), ("Content-Type", "application/xml; charset=utf-8")],
            body: Data(Self.queryAllBody.utf8))
        // Every member's href is kept, with or without data: an unsafe one must fail the answer.
        var found: [DAVMember] = []
        let reader = try MultistatusReader.members { member in
            if member.isPresent && !member.isCollection { found.append(member) }
        }
        let response = try await client.http.send(request, streamingTo: reader)
        guard response.status == 207 else {
            if response.status == 401 {
                throw HTTPError(
                    .authenticationFailed, "REPORT on \(collection.path) needs credentials",
                    recovery: "check the user name and password", status: 401, url: collection)
            }
            logger.info(
                "calendar-query refused; listing and fetching instead", metadata: ["status": "\(response.status)"])
            return try await listAndFetch()
        }
        try reader.finish()
        if found.isEmpty, try await emptyQueryDisbelieved() { return try await listAndFetch() }
        let base =
            response.url.absoluteString.hasSuffix("/")
            ? response.url : URL(string: response.url.absoluteString + "/") ?? response.url
        let resolver = response.url == collection ? resolver : HrefResolver(base: base)
        var items: [StoredItem] = []
        items.reserveCapacity(found.count)
        var seen: [ItemHref: Int] = [:]
        for member in found {
            // An unsafe href fails the whole answer, as a listing does: skipping it would make
            // the member look deleted.
            guard let resolved = try resolver.member(member.href), let etag = member.etag else { continue }
            listed.add([resolved.href.path])
            guard let data = member.calendarData else {
                unreadable.add([resolved.href.path])
                continue
            }
            let item = StoredItem(version: ItemVersion(href: ItemHref(resolved.href), etag: ItemETag(etag)), data: data)
            if let index = seen[item.href] {
                items[index] = item
            } else {
                seen[item.href] = items.count
                items.append(item)
            }
        }
        return (items, token)
    }

    /// Every member's href and etag, with the token of the listing.
    private func listing() async throws -> (versions: [ItemVersion], token: ChangeToken?) {
        switch try await changes(since: nil) {
        case .full(let all, let token): return (all, token)
        case .delta(let changed, _, let token): return (changed, token)
        case .unchanged(let token): return ([], token)
        }
    }

    /// Whether a calendar-query that found nothing is contradicted by a listing of the
    /// collection's members: SOGo (and, its users report, iCloud) answers a query filtered on
    /// VCALENDAR alone with an empty 207 whatever the calendar holds. Believed, it would pull
    /// nothing and keep a token after which nothing shows up either. One PROPFIND, made only
    /// when the query found nothing.
    func emptyQueryDisbelieved() async throws -> Bool {
        guard !(try await client.listItems(in: collection)).isEmpty else { return false }
        logger.info("calendar-query found nothing where the collection lists members; listing and fetching instead")
        return true
    }

    /// The slow path of `fetchAll()`: a full listing, then multigets.
    private func listAndFetch() async throws -> (items: [StoredItem], token: ChangeToken?) {
        let (versions, token) = try await listing()
        let items = try await fetch(versions.map(\.href))
        return (items, token)
    }

    /// A calendar-query matching every calendar object, asking for its etag and data.
    static let queryAllBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
        <d:prop><d:getetag/><c:calendar-data/></d:prop>
        <c:filter><c:comp-filter name="VCALENDAR"/></c:filter>
        </c:calendar-query>
        """
}

extension CalDAVStorage: StreamingFetchingStorage {
    /// Every member by the same `calendar-query` as `fetchAll()`, handed over in growing batches (128, 256, … up to `batchSize`) while
    /// the answer is still arriving: the HTTP client's thread reads the XML and queues batches
    /// (at most two ahead of `body`, waiting when `body` falls behind), and this task stores
    /// them. A member listed twice is handed over once.
    public func fetchAll(batchSize: Int, into body: ([StoredItem]) async throws -> Void) async throws -> ChangeToken? {
        let token = Self.changeToken(of: try await tokenInfo())
        if !facts.queriesFindEverything { return try await fetchInPages(batchSize: batchSize, into: body) }
        let request = HTTPRequest(
            method: "REPORT", url: collection,
            headers: [("Depth", "1"), ("Content-Type", "application/xml; charset=utf-8")],
            body: Data(Self.queryAllBody.utf8))
        let channel = ItemBatchChannel(capacity: 2)
        let batcher = MemberBatcher(
            collection: collection, resolver: resolver, size: max(1, batchSize), channel: channel,
            unreadable: unreadable, listed: listed)
        let reader = try MultistatusReader.members { member in try batcher.add(member) }
        batcher.reader = reader
        let client = self.client
        let transfer = Task { () throws -> HTTPResponse in
            do {
                let response = try await client.http.send(request, streamingTo: reader)
                if response.status == 207 {
                    try reader.finish()
                    batcher.flush()
                }
                channel.finish()
                return response
            } catch {
                channel.finish(throwing: error)
                throw error
            }
        }
        var delivered = 0
        do {
            while let batch = try await channel.next() {
                delivered += batch.count
                try await body(batch)
            }
        } catch {
            channel.abandon()
            _ = try? await transfer.value
            throw error
        }
        let response = try await transfer.value
        guard response.status == 207 else {
            if response.status == 401 {
                throw HTTPError(
                    .authenticationFailed, "REPORT on \(collection.path) needs credentials",
                    recovery: "check the user name and password", status: 401, url: collection)
            }
            logger.info(
                "calendar-query refused; listing and fetching in pages instead",
                metadata: ["status": "\(response.status)"])
            return try await fetchInPages(batchSize: batchSize, into: body)
        }
        if delivered == 0, try await emptyQueryDisbelieved() {
            return try await fetchInPages(batchSize: batchSize, into: body)
        }
        return token
    }

    /// Reads every item in pages: the listing (hrefs and etags, one PROPFIND or sync-collection),
    /// then one set of calendar-multigets per `batchSize` hrefs, the next page on the wire while
    /// `body` stores the one before. Neither side builds an answer larger than a page, so
    /// memory holds the listing and two pages, whatever the collection's size: the path taken
    /// when a server refuses to answer a calendar-query of every item.
    /// - Returns: the change token of the listing (items changed after it come again next time).
    public func fetchInPages(batchSize: Int, into body: ([StoredItem]) async throws -> Void) async throws
        -> ChangeToken?
    {
        let (versions, token) = try await listing()
        let size = max(1, batchSize)
        let pages = stride(from: 0, to: versions.count, by: size).map {
            versions[$0..<min($0 + size, versions.count)].map(\.href)
        }
        var next = pages.first.map { hrefs in Task { try await self.fetch(hrefs) } }
        defer { next?.cancel() }
        for index in pages.indices {
            guard let page = next else { break }
            let items = try await page.value
            next = index + 1 < pages.count ? Task { [pages] in try await self.fetch(pages[index + 1]) } : nil
            try await body(items)
        }
        return token
    }
}

/// Turns the members of a streamed answer into items and hands them to a channel in batches;
/// runs on the HTTP client's thread, one member at a time: its state is not checked for
/// overlapping access at run time (`@exclusivity(unchecked)`, eight checks a member).
private final class MemberBatcher: @unchecked Sendable {
    let collection: URL
    /// Members in the next batch: the first batches are small, so that the first files are
    /// written early; each next one is twice as large, up to `maximumSize`.
    @exclusivity(unchecked) private var size: Int
    let maximumSize: Int
    let channel: ItemBatchChannel
    weak var reader: MultistatusReader?
    @exclusivity(unchecked) private var resolver: HrefResolver
    @exclusivity(unchecked) private var resolverURL: URL?
    @exclusivity(unchecked) private var pending: [StoredItem] = []
    /// Every href handed over so far, as digests: the answer's size must not decide memory.
    @exclusivity(unchecked) private var seen: Set<StringDigest> = []

    /// Where a member listed without data is noted.
    let unreadable: UnreadableHrefs
    /// Where every member's href is noted as taken.
    let listed: ListedNames

    init(
        collection: URL, resolver: HrefResolver, size: Int, channel: ItemBatchChannel, unreadable: UnreadableHrefs,
        listed: ListedNames
    ) {
        self.unreadable = unreadable
        self.listed = listed
        self.collection = collection
        self.resolver = resolver
        self.maximumSize = size
        self.size = min(128, size)
        self.channel = channel
    }

    func add(_ member: DAVMember) throws {
        guard member.isPresent, !member.isCollection else { return }
        if let url = reader?.sourceURL, url != collection, resolverURL != url {
            // After a redirect, members are inside the collection's new location.
            resolverURL = url
            resolver = HrefResolver(
                base: url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/") ?? url)
        }
        // An unsafe href fails the whole answer, as a listing does: skipping it would make the
        // member look deleted.
        guard let href = try resolver.memberHref(member.href), let etag = member.etag else { return }
        let digest = StringDigest(href.path)
        listed.add(digest)
        guard let data = member.calendarData else {
            unreadable.add([href.path])
            return
        }
        guard seen.insert(digest).inserted else { return }
        pending.append(StoredItem(version: ItemVersion(href: ItemHref(href), etag: ItemETag(etag)), data: data))
        if pending.count >= size {
            guard channel.send(pending) else { throw CancellationError() }
            pending = []
            size = min(size * 2, maximumSize)
        }
    }

    func flush() {
        if !pending.isEmpty { _ = channel.send(pending) }
        pending = []
    }
}

extension CalDAVStorage: CollectionMetadataStorage {
    /// The collection's `DAV:displayname` and Apple `calendar-color`: as read while looking for
    /// changes in this run, else with a PROPFIND Depth 0 that asks for no change token.
    public func metadata() async throws -> CollectionMetadata {
        let info: CalendarCollection
        if let known = lastInfo.take() {
            info = known
        } else {
            info = try await client.collectionInfo(collection, tokens: [])
        }
        return CollectionMetadata(displayName: info.displayName, color: info.color)
    }

    /// Sets the non-nil fields with a PROPPATCH; a colour as `#RRGGBBAA` on a server that
    /// takes no other form (``ServerFacts/colorsWithAlpha``), which reads back as the same
    /// colour (an opaque alpha compares equal to none).
    /// - Throws: `HTTPError` when the server refuses a property.
    public func setMetadata(_ metadata: CollectionMetadata) async throws {
        guard metadata.displayName != nil || metadata.color != nil else { return }
        var color = metadata.color
        if facts.colorsWithAlpha, let rgb = color, rgb.count == 7, rgb.hasPrefix("#") { color = rgb + "FF" }
        try await client.updateCollection(collection, displayName: metadata.displayName, color: color)
    }
}
