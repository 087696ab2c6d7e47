import Foundation

extension CalDAVClient {
    /// The members of `collection` whose events name `uid` (calendar-query with a UID
    /// prop-filter, RFC 4791 §9.7.5). The server matches substrings: the caller checks the UID
    /// of what it reads.
    public func members(withUID uid: String, in collection: URL) async throws -> [RemoteItem] {
        let base = Self.collectionURL(collection)
        let (answer, response) = try await members(
            "REPORT", base, depth: "1", body: DAVRequestBodies.calendarQuery(uid: uid))
        let resolver = HrefResolver(base: Self.collectionURL(response.url))
        return try answer.compactMap { member in
            guard member.isPresent, !member.isCollection, let etag = member.etag,
                let found = try resolver.member(member.href)
            else { return nil }
            return RemoteItem(href: found.href, etag: ETag(etag))
        }
    }

    /// The scheduling messages in the account's schedule Inbox `inbox` (RFC 6638 §2.2), each
    /// with its etag: a server that rewrites one in place gives it a new etag, so a removal
    /// conditioned on the etag read never removes a message not yet read.
    public func inboxMessages(_ inbox: URL) async throws -> [CalendarResource] {
        var messages: [CalendarResource] = []
        let base = Self.collectionURL(inbox)
        for item in try await listItems(in: base) {
            let url = HrefResolver(base: base).url(for: item.href)
            guard var message = try? await get(url) else { continue }
            if message.etag.value.isEmpty { message.etag = item.etag }
            message.href = item.href
            messages.append(message)
        }
        return messages
    }
}

extension DAVRequestBodies {
    /// A calendar-query for the events whose UID contains `uid`.
    static func calendarQuery(uid: String) -> Data {
        etagQuery(
            component: "VEVENT",
            matching: .element("c:prop-filter", attributes: [("name", "UID")], children: [.text("c:text-match", uid)]))
    }
}
