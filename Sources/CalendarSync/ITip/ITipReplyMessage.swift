import ICalendar

/// The REPLY an attendee mails to the organizer of a meeting that came by mail, or is held
/// where the server sends no scheduling message (RFC 5546 §3.2.3, RFC 6047): what the
/// organizer's mail program needs to record the answer. Pure.
public enum ITipReplyMessage {
    /// The REPLY of the attendee at `own` to the event `uid` (its occurrence `recurrenceID`, or
    /// the series) of `copy`, as the copy holds the answer now: the meeting's UID, SEQUENCE,
    /// times, summary and ORGANIZER, and only the attendee's own line (with its PARTSTAT), the
    /// answer's COMMENT and a fresh DTSTAMP. Nil when the copy holds no such event, or no line
    /// of the attendee's, or no organizer.
    public static func reply(
        to copy: Component, uid: String, recurrenceID: String?, own: Set<String>, comment: String?,
        now: DateTimeValue
    ) -> Component? {
        guard
            let event = copy.components.first(where: {
                ["VEVENT", "VTODO"].contains($0.name) && $0["UID"]?.text == uid
                    && $0["RECURRENCE-ID"]?.value == recurrenceID
            }), event["ORGANIZER"] != nil, let mine = OwnPart.attendee(event, addresses: own)?.index
        else { return nil }
        var answer = Component(name: event.name)
        let kept: Set<String> = [
            "UID", "SEQUENCE", "RECURRENCE-ID", "DTSTART", "DTEND", "DUE", "DURATION", "SUMMARY", "ORGANIZER",
        ]
        answer.properties = event.properties.filter { kept.contains($0.name) }
        var line = event.properties[mine]
        for parameter in ["RSVP", "SCHEDULE-STATUS", "SCHEDULE-AGENT", "SCHEDULE-FORCE-SEND"] {
            line.setParameter(parameter, nil)
        }
        answer.properties.append(line)
        answer.properties.append(.dateTime("DTSTAMP", now))
        if let comment, !comment.isEmpty { answer.properties.append(Property.text("COMMENT", comment)) }
        var message = Component(name: "VCALENDAR")
        message.properties = [
            Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//calgw//calgw//EN"),
            Property(name: "METHOD", value: "REPLY"),
        ]
        let zones = Set(answer.properties.compactMap { $0[parameter: "TZID"] })
        message.components = copy.components(named: "VTIMEZONE").filter { zones.contains($0["TZID"]?.value ?? "") }
        message.components.append(answer)
        return message
    }
}
