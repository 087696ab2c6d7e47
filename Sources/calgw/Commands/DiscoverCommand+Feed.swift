import CalDAV
import CalendarSync
import Foundation

extension DiscoverCommand {
    /// Reads `target` as an iCalendar feed: one GET, split as a subscription would split it.
    /// - Throws: `SubscriptionError` when it is not a feed calgw can use.
    func feedRow(_ target: URL, client: CalDAVClient) async throws -> Row {
        let storage = SubscriptionStorage(url: target, client: client.http)
        let (items, _) = try await storage.fetchAll()
        var kinds: [String] = []
        for kind in ["VEVENT", "VTODO", "VJOURNAL"] {
            let marker = Data("BEGIN:\(kind)\r\n".utf8)
            if items.contains(where: { $0.data.range(of: marker) != nil }) { kinds.append(kind) }
        }
        return Row(href: target.path, url: url, displayName: nil, color: nil, components: kinds, ctag: nil, syncToken: nil,
                   subscription: true, items: items.count)
    }

    /// Prints a feed: a one-row array with `--json`, else what it is and how to add it.
    func render(_ row: Row) throws {
        if output.json {
            try Terminal.printJSON([row])
            return
        }
        guard !output.quiet else { return }
        let kinds = row.components.isEmpty ? "" : " (\(row.components.joined(separator: ",")))"
        Terminal.out("\(row.url) is an iCalendar feed, a read-only subscription: \(row.items ?? 0) items\(kinds)")
        let remote = row.url.lowercased().hasPrefix("webcal") || SubscriptionURL.looksLikeFeed(URL(string: row.url) ?? URL(fileURLWithPath: "/"))
            ? row.url : "\(row.url) --subscription"
        Terminal.out("add it with: calgw init --local DIR --remote \(remote)")
    }
}
