import Foundation
import Graph
import ICalendar

extension GraphStorage {
    /// Each event or series as one iCalendar object: a series' master with its exceptions and
    /// cancelled occurrences, twenty to a `$batch`. An event calgw cannot translate comes as
    /// bytes that are not iCalendar, naming why: the run then leaves it alone on both sides and
    /// says so.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        let answers = try await client.batchGET(hrefs.map { client.eventPath($0.value, query: Self.readQuery) })
        var items: [StoredItem] = []
        for (href, answer) in zip(hrefs, answers) {
            if let event = try client.batchEvent(answer, path: client.eventPath(href.value)),
                let item = item(href, event, cancelled: Self.cancelled(of: event))
            {
                items.append(item)
            }
        }
        return items
    }

    /// A series' cancelled occurrences as read (none read: none); nil for a single event.
    static func cancelled(of event: GraphEvent) -> [String]? {
        event.recurrence != nil ? event.cancelledOccurrences ?? [] : nil
    }

    /// The item `event` makes (`cancelled`: a series' cancelled occurrences); nil without a
    /// change key.
    func item(_ href: ItemHref, _ event: GraphEvent, cancelled: [String]?) -> StoredItem? {
        guard let key = event.changeKey else { return nil }
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

    /// What a read asks for: every property calgw reads (`cancelledOccurrences` comes only
    /// when selected), the exceptions, and what calgw keeps with the event (its UID, the text
    /// it wrote).
    static let readQuery =
        "?$select=" + GraphEvent.readProperties.joined(separator: ",")
        + "&$expand=exceptionOccurrences,singleValueExtendedProperties($filter="
        + [GraphExtendedProperty.uidID, GraphExtendedProperty.originalID].map {
            "id%20eq%20'" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "'"
        }.joined(separator: "%20or%20") + ")"
}

extension GraphEvent {
    /// The properties calgw reads of an event.
    static let readProperties = [
        "id", "iCalUId", "changeKey", "subject", "body", "bodyPreview", "start", "end", "originalStartTimeZone",
        "originalEndTimeZone", "isAllDay", "location", "locations", "categories", "showAs", "sensitivity",
        "importance", "isReminderOn", "reminderMinutesBeforeStart", "organizer", "isOrganizer", "attendees",
        "responseRequested", "responseStatus", "type", "seriesMasterId", "originalStart", "recurrence",
        "cancelledOccurrences", "isCancelled", "transactionId", "createdDateTime", "lastModifiedDateTime",
    ]
}

extension GraphStorage: ServerNamedStorage {
    /// The event or series calgw created with the UID `key`, found by the extended property
    /// that carries the UID (a `$filter` Graph documents for extended properties).
    public func created(key: ItemKey) async throws -> StoredItem? {
        guard !key.isUIDLess else { return nil }
        let quoted = key.value.replacingOccurrences(of: "'", with: "''")
        let filter =
            "singleValueExtendedProperties/Any(ep: ep/id eq '\(GraphExtendedProperty.uidID)' "
            + "and ep/value eq '\(quoted)')"
        let query =
            "$filter=" + (filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? filter)
            + "&$select=id"
        let found = try await client.get(
            URL(string: calendar.absoluteString + "/events?" + query)!, as: GraphPage<GraphEvent>.self)
        guard let id = found.value.first?.id else { return nil }
        return try await fetch([ItemHref(id)], for: .copy).first
    }
}

extension GraphStorage: RewritingStorage, NotingStorage {
    /// A series whose update Outlook kept otherwise: an occurrence cancelled there that the
    /// vdir's copy brought back (Graph cannot un-cancel one).
    public func takeRewrittenVersion(at href: ItemHref) -> StoredItem? { rewritten.take(href) }

    public func takeNotes() -> [String] { notes.take() }
}
