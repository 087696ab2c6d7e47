import Foundation
import HTTP

extension CalDAVClient {
    /// Every member of `collection` with its etag (PROPFIND Depth 1 of `getetag`). Members
    /// without an etag, sub-collections and the collection itself are left out; an href
    /// listed twice counts once.
    public func listItems(in collection: URL) async throws -> [RemoteItem] {
        let base = Self.collectionURL(collection)
        let (answer, response) = try await members(
            "PROPFIND", base, depth: "1",
            body: DAVRequestBodies.propfind([.empty("d:resourcetype"), .empty("d:getetag")]))
        return try items(of: answer, in: Self.collectionURL(response.url))
    }

    /// Members of `collection` with an event overlapping `start..<end` (calendar-query with a
    /// time-range on `component`), for windowed sync.
    public func calendarQuery(_ collection: URL, component: String = "VEVENT", start: Date, end: Date) async throws
        -> [RemoteItem]
    {
        let base = Self.collectionURL(collection)
        let (answer, response) = try await members(
            "REPORT", base, depth: "1",
            body: DAVRequestBodies.calendarQuery(component: component, start: start, end: end))
        return try items(of: answer, in: Self.collectionURL(response.url))
    }

    private func items(of answer: [DAVMember], in base: URL) throws -> [RemoteItem] {
        let resolver = HrefResolver(base: base)
        var seen: [Href: Int] = [:]
        var items: [RemoteItem] = []
        for response in answer {
            guard response.isPresent, !response.isCollection, let etag = response.etag else { continue }
            // An unsafe href fails the whole listing: a member left out would look deleted.
            guard let member = try resolver.member(response.href) else { continue }
            let item = RemoteItem(href: member.href, etag: ETag(etag))
            if let index = seen[member.href] {
                items[index] = item
            } else {
                seen[member.href] = items.count
                items.append(item)
            }
        }
        return items
    }

    /// What changed in `collection` since `token` (RFC 6578); nil lists every member.
    /// A truncated answer (507 on the collection) is continued with the token it gave.
    /// - Throws: `HTTPError.invalidSyncToken` when the server no longer knows `token`:
    ///   list the collection in full instead.
    public func syncCollection(_ collection: URL, token: SyncToken?) async throws -> SyncCollectionResult {
        let base = Self.collectionURL(collection)
        let resolver = HrefResolver(base: base)
        var changed: [Href: RemoteItem] = [:]
        var order: [Href] = []
        var removed: Set<Href> = []
        var current = token
        for _ in 0..<1000 {
            let response = try await davRequest(
                "REPORT", base, depth: nil, body: DAVRequestBodies.syncCollection(token: current))
            guard response.status == 207 else {
                // Servers answer a token they forgot in many ways: 400, 403, 409 and 412 as RFC
                // 6578 §3.2's precondition, 410 as Google's REST API does, 507 (python-caldav
                // #340 has Google answer 507 to sync-collections); a rate limit is none of them.
                if current != nil, !response.rateLimited, [400, 403, 409, 410, 412, 507].contains(response.status) {
                    throw HTTPError(
                        .invalidSyncToken,
                        "the server no longer knows the sync-token of \(base.redactedString) (\(response.status))",
                        recovery: "list the collection in full", status: response.status, url: base,
                        serverReason: ServerReason.extract(from: response.body))
                }
                throw HTTPError.status(response, method: "REPORT", url: base)
            }
            let answer = try Multistatus.members(of: response.body)
            // After a redirect, members are inside the collection's new location.
            let resolver = response.url == base ? resolver : HrefResolver(base: Self.collectionURL(response.url))
            var truncated = false
            for item in answer.members {
                guard let member = try resolver.member(item.href) else {
                    if item.status == 507 { truncated = true }
                    continue
                }
                if let status = item.status, status == 404 || status == 410 {
                    removed.insert(member.href)
                    changed.removeValue(forKey: member.href)
                    continue
                }
                guard !item.isCollection, let etag = item.etag else { continue }
                removed.remove(member.href)
                if changed[member.href] == nil { order.append(member.href) }
                changed[member.href] = RemoteItem(href: member.href, etag: ETag(etag))
            }
            let next = answer.syncToken.flatMap { $0.isEmpty ? nil : SyncToken($0) }
            if truncated, let next, next != current {
                current = next
                continue
            }
            return SyncCollectionResult(
                changed: order.compactMap { changed[$0] }, removed: removed.sorted(), token: next ?? current)
        }
        throw HTTPError(.invalidResponse, "the sync-collection of \(base.redactedString) never finished", url: base)
    }

    /// The bytes and etags of `hrefs` in `collection` (calendar-multiget REPORTs of
    /// `multigetBatchSize` hrefs, run in parallel), with CRLF line ends (see `LineEnds`).
    /// Members that are gone are left out.
    /// - Parameter scheduleTags: also ask for each member's Schedule-Tag (RFC 6638 §9.3), for
    ///   the meetings about to be written as the person's own action.
    public func multiget(_ collection: URL, hrefs: [Href], scheduleTags: Bool = false) async throws
        -> [CalendarResource]
    {
        let base = Self.collectionURL(collection)
        let size = max(1, configuration.multigetBatchSize)
        let batches = stride(from: 0, to: hrefs.count, by: size).map { Array(hrefs[$0..<min($0 + size, hrefs.count)]) }
        return try await withThrowingTaskGroup(of: (Int, [CalendarResource]).self) { group in
            for (index, batch) in batches.enumerated() {
                group.addTask { (index, try await self.multigetBatch(base, batch, scheduleTags: scheduleTags)) }
            }
            var results = [[CalendarResource]](repeating: [], count: batches.count)
            for try await (index, resources) in group { results[index] = resources }
            return results.flatMap { $0 }
        }
    }

    private func multigetBatch(_ base: URL, _ hrefs: [Href], scheduleTags: Bool) async throws -> [CalendarResource] {
        guard !hrefs.isEmpty else { return [] }
        let (answer, response) = try await members(
            "REPORT", base, depth: "1", body: DAVRequestBodies.multiget(hrefs, scheduleTags: scheduleTags))
        let resolver = HrefResolver(base: Self.collectionURL(response.url))
        let wanted = Set(hrefs)
        var found: [Href: CalendarResource] = [:]
        for response in answer {
            // An href outside the collection fails the whole answer, as in a listing: skipped,
            // the item asked for would look deleted.
            guard response.isPresent, let member = try resolver.member(response.href), wanted.contains(member.href),
                let data = response.calendarData
            else { continue }
            found[member.href] = CalendarResource(href: member.href, etag: ETag(response.etag ?? ""), data: data)
            found[member.href]?.scheduleTag = ScheduleTag(response.scheduleTag)
        }
        return hrefs.compactMap { found[$0] }
    }

    /// One resource by GET.
    /// - Throws: `HTTPError.notFound` when it is gone.
    public func get(_ url: URL) async throws -> CalendarResource {
        let response = try await http.send(HTTPRequest(method: "GET", url: url, headers: [("Accept", "text/calendar")]))
        guard response.isSuccess else {
            throw HTTPError.status(response, method: "GET", url: url)
        }
        var resource = CalendarResource(
            href: HrefResolver.href(of: url), etag: ETag(response.header("ETag") ?? ""),
            data: LineEnds.terminated(response.body))
        resource.scheduleTag = ScheduleTag(response.header("Schedule-Tag"))
        return resource
    }
}
