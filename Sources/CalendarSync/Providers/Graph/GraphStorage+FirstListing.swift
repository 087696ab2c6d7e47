import Foundation
import Graph

extension GraphStorage: BulkFetchingStorage, StreamingFetchingStorage {
    /// Every event and series of the window with its bytes, for a first sync (see
    /// ``fetchAll(batchSize:into:)``).
    public func fetchAll() async throws -> (items: [StoredItem], token: ChangeToken?) {
        var items: [StoredItem] = []
        let token = try await fetchAll(batchSize: listPageSize) { items += $0 }
        return (items, token)
    }

    /// Every event and series of the window with its bytes, a page at a time, for a first sync.
    ///
    /// A delta round says what the window holds (its entries carry no extended properties, so
    /// they cannot be items themselves) and gives the link the next round starts from; then
    /// the calendar's singles and series masters are listed whole, up to 1,000 a page, with
    /// their exceptions, cancelled occurrences and the properties calgw keeps (`GET
    /// …/events?$select=…&$expand=…&$top=1000`). Those the round did not name are outside the
    /// window and left out; those it named that the listing did not give (made in between) are
    /// read alone, twenty to a `$batch`. At 10,000 events that is about 30 requests, where
    /// reading each event in batches took about 800.
    /// - Returns: the token of the round (its link, the masters' change keys).
    /// - Throws: ``GraphError`` for a refusal, an endless round or listing, an unreadable page;
    ///   what `body` threw.
    public func fetchAll(batchSize: Int, into body: ([StoredItem]) async throws -> Void) async throws
        -> ChangeToken?
    {
        let (canEdit, stamp) = try await readCalendar()
        let (entries, link) = try await round(from: URL(string: deltaBase + "/calendarView/delta?" + window.query)!)
        var masters: Set<String> = []
        var unread: Set<String> = []
        for entry in entries where !entry.removed {
            if let master = entry.masterID { masters.insert(master) }
            unread.insert(entry.masterID ?? entry.id)
        }
        var keys: [String: String] = [:]
        var batch: [StoredItem] = []
        var events = 0
        try await listEvents(query: Self.readQuery) { event in
            events += 1
            guard let id = event.id, unread.remove(id) != nil else { return }  // outside the window
            if masters.contains(id), let key = event.changeKey { keys[id] = key }
            if let item = item(ItemHref(id), event, cancelled: Self.cancelled(of: event)) { batch.append(item) }
            if batch.count >= batchSize {
                try await body(batch)
                batch = []
            }
        }
        for item in try await fetch(unread.sorted().map(ItemHref.init), for: .copy) {
            if masters.contains(item.href.value) { keys[item.href.value] = item.etag.value }
            batch.append(item)
        }
        if !batch.isEmpty { try await body(batch) }
        let token = GraphListingState(
            deltaLink: link, window: window.key, masters: keys, canEdit: canEdit, events: events, stamp: stamp,
            checked: Date()
        ).token
        listed.withLock { $0 = token }
        return token
    }

    /// Calls `each` with every single event and series master of the calendar, page after page,
    /// as `query` (`?$select=…`) asks for them.
    /// - Throws: ``GraphError`` `.repeatedPage` when a page links to one given before or the
    ///   listing passes its bounds (``RoundBounds``); a refusal; what `each` threw.
    func listEvents(query: String, _ each: (GraphEvent) async throws -> Void) async throws {
        var url = URL(string: calendar.absoluteString + "/events" + query + "&$top=\(listPageSize)")!
        var seen: Set<String> = [url.absoluteString]
        var pages = 0
        while true {
            let page = try await client.get(url, as: GraphPage<GraphEvent>.self)
            pages += 1
            for event in page.value { try await each(event) }
            guard let next = page.nextLink else { return }
            guard let nextURL = URL(string: next), seen.insert(next).inserted, pages < bounds.pages else {
                throw endlessRound(pages: pages, repeated: true)
            }
            url = nextURL
        }
    }
}
