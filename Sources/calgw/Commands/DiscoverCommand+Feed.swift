import CalendarSync
import Foundation

extension DiscoverCommand {
    /// Reads `target` as an iCalendar feed: one GET, split as a subscription would split it.
    /// - Throws: `SubscriptionError` when it is not a feed calgw can use.
    func feedRow(_ target: URL, server: CalendarServer) async throws -> Row {
        let feed = try await server.feed(at: target)
        return Row(
            href: target.path, url: url, displayName: nil, color: nil, components: feed.components, ctag: nil,
            syncToken: nil,
            subscription: true, items: feed.items)
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
        let remote =
            row.url.lowercased().hasPrefix("webcal")
                || SubscriptionURL.looksLikeFeed(URL(string: row.url) ?? URL(fileURLWithPath: "/"))
            ? row.url : "\(row.url) --subscription"
        Terminal.out("add it with: calgw init --local DIR --remote \(remote)")
    }
}
