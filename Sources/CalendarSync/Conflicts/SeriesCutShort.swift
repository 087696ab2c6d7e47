import Foundation
import ICalendar

/// A meeting whose only change is its series cut short (the rule's UNTIL or COUNT, as an
/// organizer's this-and-future edit leaves the old series), delivered with the attendees'
/// answers asked again. No occurrence that is left moved, so the answers given to them stand
/// (RFC 5546 §2.1.4: only a change of time asks again): calgw's own organizer side keeps them
/// (``OrganizerChange``), but Cyrus's REQUEST for the shortened series puts each attendee back
/// at `PARTSTAT=NEEDS-ACTION` in their copy, while the organizer's copy keeps their answers.
/// Pure: it compares the version before with the one delivered.
enum SeriesCutShort {
    /// `after` with each answer `before` gave and `after` asked again given back, when the
    /// change from `before` to `after` cuts a series short and changes nothing else that
    /// matters (``MeetingChange``; SEQUENCE aside, and occurrences past the new end gone);
    /// nil when it is any other change, asks nobody again, or either does not parse.
    static func answersKept(before: Data, after: Data) -> Data? {
        guard mayAskAgain(after), let old = try? ICalendarParser().parse(before).components,
            var new = try? ICalendarParser().parse(after).components,
            old.count == 1, new.count == 1
        else { return nil }
        let previous = Dictionary(
            old[0].components.map { (OrganizerChange.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        var cut = false
        var asked = false
        for i in new[0].components.indices where new[0].components[i].name == "VEVENT" {
            let event = new[0].components[i]
            guard let was = previous[OrganizerChange.key(event)],
                OrganizerChange.timing(of: was) == OrganizerChange.timing(of: event),
                essence(was) == essence(event)
            else { return nil }
            cut = cut || was["RRULE"]?.value != event["RRULE"]?.value
            asked = keepAnswers(of: was, in: &new[0].components[i]) || asked
        }
        guard cut, asked else { return nil }
        return ICalendarSerializer().data(new)
    }

    /// Whether `after` may be such a version: a rule and an answer asked. Any other version, as
    /// nearly every one pulled is, costs a search of its bytes and nothing more.
    static func mayAskAgain(_ after: Data) -> Bool {
        after.range(of: Data("RRULE".utf8)) != nil && after.range(of: Data("NEEDS-ACTION".utf8)) != nil
    }

    /// The event as ``MeetingChange`` compares it, its SEQUENCE and its rule's end left out.
    private static func essence(_ event: Component) -> Component {
        var kept = event
        kept.properties.removeAll { ["SEQUENCE", "RRULE"].contains($0.name) }
        kept.components.removeAll { $0.name == "VALARM" }
        return MeetingChange.essence(kept)
    }

    /// Gives each attendee of `event` at NEEDS-ACTION the answer (and RSVP) `was` gave them.
    /// - Returns: whether any answer was given back.
    private static func keepAnswers(of was: Component, in event: inout Component) -> Bool {
        var answers: [String: Property] = [:]
        for property in was.properties where property.name == "ATTENDEE" {
            answers[CalendarUser.normalized(property.value)] = property
        }
        var changed = false
        for k in event.properties.indices where event.properties[k].name == "ATTENDEE" {
            let line = event.properties[k]
            guard (line[parameter: "PARTSTAT"]?.uppercased() ?? "NEEDS-ACTION") == "NEEDS-ACTION",
                let earlier = answers[CalendarUser.normalized(line.value)],
                let answer = earlier[parameter: "PARTSTAT"], answer.uppercased() != "NEEDS-ACTION"
            else { continue }
            event.properties[k].setParameter("PARTSTAT", answer)
            event.properties[k].setParameter("RSVP", earlier[parameter: "RSVP"])
            changed = true
        }
        return changed
    }
}
