import CalDAV
import Foundation
import Graph
import ICalendar

extension GraphStorage {
    /// The person's answer to an invitation, made the way Graph takes one: `accept`,
    /// `tentativelyAccept` or `decline` of the event or series, with the answer's COMMENT, sending the organizer the reply. Graph refuses an
    /// attendee's own status in a PATCH. Nil when the event is the account's own, or `data`
    /// changes no answer: the write is then an ordinary update.
    /// - Returns: the event's version after the answers (its version before, for a declined
    ///   event Graph has taken out of the calendar).
    func answer(_ data: Data, href: ItemHref, ifMatch etag: ItemETag) async throws -> ItemVersion? {
        let event: GraphEvent
        do {
            event = try await client.get(
                client.event(href.value, query: "?$select=id,isOrganizer,responseStatus,changeKey"), as: GraphEvent.self
            )
        } catch let error as GraphError where error.status == 404 {
            throw StorageError.preconditionFailed(href: href)
        }
        guard event.isOrganizer == false, let key = event.changeKey else { return nil }
        guard key == etag.value else { throw StorageError.preconditionFailed(href: href) }
        guard let calendar = try? ICalendarParser().parse(data).calendar else { return nil }
        let own = Set(try await account().addresses.map(CalendarUser.normalized))
        var answered = false
        for component in calendar.components where component.name == "VEVENT" {
            guard let (action, comment) = Self.answer(in: component, own: own) else { continue }
            // One occurrence's answer is not made yet: the series' is.
            guard component["RECURRENCE-ID"] == nil, action != Self.action(for: event.responseStatus?.response)
            else { continue }
            var body: [String: Any] = ["sendResponse": true]
            if let comment { body["comment"] = comment }
            let json = try JSONSerialization.data(withJSONObject: body)
            try await client.send("POST", client.event(href.value, query: "/" + action), json: json)
            answered = true
        }
        guard answered else { return nil }
        let after = try await changeKeys(of: [href.value])[href.value]
        return ItemVersion(href: href, etag: ItemETag(after ?? etag.value))
    }

    /// The Graph action of the person's PARTSTAT in `component`, and the COMMENT going with
    /// it; nil when the person is not among its attendees or has not answered.
    static func answer(in component: Component, own: Set<String>) -> (String, String?)? {
        let mine = component.properties.first {
            $0.name == "ATTENDEE" && own.contains(CalendarUser.normalized($0.value))
        }
        guard let partstat = mine?[parameter: "PARTSTAT"]?.uppercased() else { return nil }
        let action: String
        switch partstat {
        case "ACCEPTED": action = "accept"
        case "TENTATIVE": action = "tentativelyAccept"
        case "DECLINED": action = "decline"
        default: return nil
        }
        return (action, component["COMMENT"]?.value)
    }

    /// The action that gives `response`, to tell whether an answer is already Graph's.
    static func action(for response: GraphResponse?) -> String? {
        switch response?.rawValue.lowercased() {
        case "accepted"?: "accept"
        case "tentativelyaccepted"?: "tentativelyAccept"
        case "declined"?: "decline"
        default: nil
        }
    }
}
