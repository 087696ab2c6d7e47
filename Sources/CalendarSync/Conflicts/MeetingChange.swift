import Foundation
import ICalendar

/// Whether a meeting changed in a way that matters to its participants: RFC 6638 §3.2.10's
/// "consequential" change, the kind that changes its Schedule-Tag. Attendees' answers
/// (PARTSTAT, RSVP, and the server's notes of them in X- parameters), the server's delivery
/// marks (SCHEDULE-STATUS, SCHEDULE-AGENT, SCHEDULE-FORCE-SEND) and the stamps (DTSTAMP, LAST-MODIFIED) do not matter; a new time,
/// title, attendee, SEQUENCE or anything else does. Property order does not either.
enum MeetingChange {
    /// True when `later` differs from `earlier` in anything that matters; true as well when
    /// either does not parse.
    static func matters(from earlier: Data, to later: Data) -> Bool {
        let parser = ICalendarParser()
        guard let a = try? parser.parse(earlier).components, let b = try? parser.parse(later).components else {
            return true
        }
        return a.map(essence) != b.map(essence)
    }

    /// `component` without what does not matter, its properties in one order.
    static func essence(_ component: Component) -> Component {
        var c = Canonicalizer().canonicalize(component)
        c.properties = c.properties.filter { !["DTSTAMP", "LAST-MODIFIED"].contains($0.name) }.map { property in
            guard ["ATTENDEE", "ORGANIZER"].contains(property.name) else { return property }
            var kept = property
            kept.parameters = kept.parameters.filter {
                !Self.answerParameters.contains($0.name) && !$0.name.hasPrefix("X-")
            }
            .sorted { $0.name < $1.name }
            return kept
        }.sorted { order($0) < order($1) }
        c.components = c.components.map(essence)
        return c
    }

    /// What an attendee's answer and its delivery set on their line. Extension parameters are
    /// the server's bookkeeping of the answer too (Cyrus notes each reply's `X-DTSTAMP` and
    /// `X-SEQUENCE` there).
    static let answerParameters: Set<String> = [
        "PARTSTAT", "RSVP", "SCHEDULE-STATUS", "SCHEDULE-AGENT", "SCHEDULE-FORCE-SEND",
    ]

    /// A property's place in the compared order: name, value, then parameters.
    private static func order(_ p: Property) -> String {
        p.name + "\u{0}" + p.value + "\u{0}"
            + p.parameters.map { $0.name + "=" + $0.values.joined(separator: ",") }.joined(separator: ";")
    }
}
