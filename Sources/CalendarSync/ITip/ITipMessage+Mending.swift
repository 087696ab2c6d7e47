import Foundation
import ICalendar

/// What mail programs send that servers refuse, as real invitations show it (Thunderbird's
/// both DTEND and DURATION, a calendar without VERSION, RFC 5546's own `ATTENDEE:conf_big@…`
/// without a scheme), mended as the message is taken in, each mend said in the message's
/// note; and what cannot be mended (a line a broken mail encoding garbled) refused before
/// anything is written, so that an invitation never becomes a file every later sync fails on.
extension ITipMessage {
    /// `calendar` mended, with a sentence per mend.
    static func mended(_ calendar: Component) -> (calendar: Component, mends: [String]) {
        var result = calendar
        var mends: [String] = []
        if result["VERSION"] == nil {
            result.properties.insert(Property(name: "VERSION", value: "2.0"), at: 0)
            mends.append("it had no VERSION: VERSION:2.0 added")
        }
        for i in result.components.indices where ["VEVENT", "VTODO"].contains(result.components[i].name) {
            var event = result.components[i]
            let end = event.name == "VTODO" ? "DUE" : "DTEND"
            if event[end] != nil, event["DURATION"] != nil {
                event.remove("DURATION")
                mends.append("\(event.name) had both \(end) and DURATION, which RFC 5545 forbids: \(end) kept")
            }
            for p in event.properties.indices where ["ATTENDEE", "ORGANIZER"].contains(event.properties[p].name) {
                let value = event.properties[p].value
                guard !value.contains(":"), value.contains("@") else { continue }
                event.properties[p].value = "mailto:" + value
                mends.append("\(event.properties[p].name) \(value) had no scheme: read as mailto:\(value)")
            }
            result.components[i] = event
        }
        var said = Set<String>()
        return (result, mends.filter { said.insert($0).inserted })
    }

    /// Why the copy a message makes cannot be written as it is (the first error `lint` finds in
    /// it, a zone calgw does not know aside: the server decides on that); nil when it can.
    static func invalidity(of copy: Component) -> String? {
        let errors = Linter().lint(Data(ICalendarSerializer().string(copy).utf8)).filter {
            $0.severity == .error && $0.kind != .unknownZone
        }
        guard let first = errors.first else { return nil }
        let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
        return "the meeting is not valid iCalendar as it came, and servers refuse it: \(first.message)\(more)"
    }
}
