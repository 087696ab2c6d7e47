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
    /// conditioned on the etag read never removes a message not yet read. Two requests
    /// whatever the Inbox holds (a listing, then calendar-multiget REPORTs of every message);
    /// a server that refuses the REPORT there has each message read by GET.
    public func inboxMessages(_ inbox: URL) async throws -> [CalendarResource] {
        var messages: [CalendarResource] = []
        let base = Self.collectionURL(inbox)
        var listed = try await listItems(in: base)
        if listed.isEmpty { return [] }
        if let read = try? await multiget(base, hrefs: listed.map(\.href)) {
            let etags = Dictionary(listed.map { ($0.href, $0.etag) }) { first, _ in first }
            messages = read.map { message in
                var message = message
                if message.etag.value.isEmpty, let etag = etags[message.href] { message.etag = etag }
                return message
            }
            // What the REPORT left out (a server that gives no data there) is read by GET.
            let got = Set(read.map(\.href))
            listed.removeAll { got.contains($0.href) }
        }
        for item in listed {
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
