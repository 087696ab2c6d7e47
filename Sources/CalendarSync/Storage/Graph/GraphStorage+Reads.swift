import Foundation
import Graph
import ICalendar

extension GraphStorage {
    /// Each event or series as one iCalendar object: a series' master with its exceptions and
    /// cancelled occurrences. An event calgw cannot translate comes as bytes that are not
    /// iCalendar, naming why: the run then leaves it alone on both sides and says so.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        try await eachAtOnce(hrefs) { href in try await self.read(href) }
    }

    /// The item at `href`, nil when Graph no longer has it.
    func read(_ href: ItemHref) async throws -> StoredItem? {
        let event: GraphEvent
        do {
            event = try await client.get(client.event(href.value, query: Self.readQuery), as: GraphEvent.self)
        } catch let error as GraphError where error.status == 404 {
            return nil
        }
        guard let key = event.changeKey else { return nil }
        var cancelled: [String]?
        if event.recurrence != nil {
            let listed = try await client.get(
                client.event(href.value, query: "?$select=id,cancelledOccurrences"), as: GraphEvent.self)
            cancelled = listed.cancelledOccurrences ?? []
        }
        let version = ItemVersion(href: href, etag: ItemETag(key))
        do {
            let calendar = try event.iCalendar(
                exceptions: event.exceptionOccurrences ?? [], cancelledOccurrences: cancelled)
            // A meeting reads as Graph holds it: its attendees' answers change it without
            // changing what calgw wrote.
            if (event.attendees ?? []).isEmpty,
                let kept = event.extendedProperty(GraphExtendedProperty.originalID).flatMap(
                    GraphKeptOriginal.init(value:)),
                let holds = try? calendar.graphEventWrite(),
                GraphKeptOriginal.fingerprint(of: holds) == kept.fingerprint
            {
                return StoredItem(version: version, data: kept.text)
            }
            return StoredItem(version: version, data: ICalendarSerializer().data([calendar]))
        } catch {
            logger.warning("cannot translate a Graph event", metadata: ["id": "\(href.value)", "error": "\(error)"])
            return StoredItem(
                version: version, data: Data("calgw cannot read Graph event \(href.value): \(error)\n".utf8))
        }
    }

    /// What a read asks for besides the event: its exceptions, and what calgw keeps with it (its
    /// UID, the text it wrote).
    static let readQuery =
        "?$expand=exceptionOccurrences,singleValueExtendedProperties($filter="
        + [GraphExtendedProperty.uidID, GraphExtendedProperty.originalID].map {
            "id%20eq%20'" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "'"
        }.joined(separator: "%20or%20") + ")"
}
