import CalDAV
import Foundation
import Graph
import ICalendar

extension GraphStorage {
    /// The person's answer to an invitation, made the way Graph takes one: `accept`,
    /// `tentativelyAccept` or `decline` of the event, the series or one occurrence (an override
    /// whose answer differs from Graph's), with the answer's COMMENT, sending the organizer the
    /// reply, unless the organizer asked for none (`responseRequested` false: the answer is then
    /// kept in Outlook alone, and the run says so). Graph refuses an attendee's own status in a PATCH. Nil when the event is the account's own, or `data`
    /// changes no answer: the write is then an ordinary update.
    /// - Returns: the event's version after the answers (its version before, for a declined
    ///   event Graph has taken out of the calendar).
    func answer(_ data: Data, href: ItemHref, ifMatch etag: ItemETag) async throws -> ItemVersion? {
        let event: GraphEvent
        do {
            event = try await client.get(
                client.event(href.value, query: "?$select=id,isOrganizer,responseStatus,responseRequested,changeKey"),
                as: GraphEvent.self
            )
        } catch let error as GraphError where error.status == 404 {
            throw StorageError.preconditionFailed(href: href)
        }
        guard event.isOrganizer == false, let key = event.changeKey else { return nil }
        guard key == etag.value else { throw StorageError.preconditionFailed(href: href) }
        guard let calendar = try? ICalendarParser().parse(data).calendar else { return nil }
        let own = Set(
            try await GraphDirectory(http: client.http, account: client.mailbox, window: nil).account().addresses
                .map(CalendarUser.normalized))
        var answered = false
        var occurrences: [DateTimeValue: (id: String, response: GraphResponse?)]?
        for component in calendar.components where component.name == "VEVENT" {
            guard let (action, comment) = Self.answer(in: component, own: own) else { continue }
            var target = href.value
            if let recurrenceID = component.properties(named: "RECURRENCE-ID").flatMap(\.dateTimes).first {
                // One occurrence's answer goes to that occurrence, as Outlook makes it.
                if occurrences == nil { occurrences = try await answerableOccurrences(of: href.value, in: calendar) }
                guard let occurrence = occurrences?[recurrenceID],
                    action != Self.action(for: occurrence.response)
                else { continue }
                target = occurrence.id
            } else if action == Self.action(for: event.responseStatus?.response) {
                continue
            }
            // An organizer who asked for no answers gets none: Graph refuses to send one, and
            // takes a comment only with an answer sent. The answer is kept in Outlook alone.
            let send = event.responseRequested != false
            var body: [String: Any] = ["sendResponse": send]
            if let comment, send { body["comment"] = comment }
            if !send {
                notes.add(
                    "\(href.value): the organizer asked for no answers; your answer is kept in Outlook and not sent"
                        + (comment == nil ? "" : ", nor your comment"))
            }
            let json = try JSONSerialization.data(withJSONObject: body)
            try await client.send("POST", client.event(target, query: "/" + action), json: json)
            answered = true
        }
        guard answered else { return nil }
        let after = try await changeKeys(of: [href.value])[href.value]
        return ItemVersion(href: href, etag: ItemETag(after ?? etag.value))
    }

    /// The occurrences of series `id` that `calendar` overrides, by RECURRENCE-ID: each one's
    /// Graph id and the person's answer to it there.
    private func answerableOccurrences(of id: String, in calendar: Component) async throws -> [DateTimeValue: (
        id: String, response: GraphResponse?
    )] {
        guard let write = try? calendar.graphEventWrite() else { return [:] }
        var found: [String: GraphEvent] = [:]
        var next: URL? = client.event(id, query: "/instances?" + window.query)
        while let url = next {
            let page = try await client.get(url, as: GraphPage<GraphEvent>.self)
            for event in page.value {
                if let start = event.originalStart { found[Self.instant(start)] = event }
            }
            next = page.nextLink.flatMap(URL.init(string:))
        }
        var out: [DateTimeValue: (id: String, response: GraphResponse?)] = [:]
        for override in write.overrides {
            guard let event = found[Self.instant(override.occurrence.originalStart)], let instance = event.id
            else { continue }
            out[override.occurrence.recurrenceID] = (instance, event.responseStatus?.response)
        }
        return out
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
