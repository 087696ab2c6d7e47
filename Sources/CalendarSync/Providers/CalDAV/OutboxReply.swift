import Foundation
import ICalendar

/// The REPLY (RFC 5546 §3.2.3) an attendee's client sends by POST to the schedule Outbox
/// (RFC 6638 §5) where the server does not send it for the stored copy: one event per
/// version of the meeting that names the attendee (the series, each answered occurrence),
/// each with what identifies it (UID, RECURRENCE-ID, SEQUENCE, its time), the ORGANIZER, the
/// attendee's own line and the COMMENT that goes with the answer.
enum OutboxReply {
    /// Whether `data` has a COMMENT line (the person's answer carries one): a search of the
    /// bytes.
    static func carriesComment(_ data: Data) -> Bool {
        data.range(of: Data("\nCOMMENT".utf8)) != nil || data.range(of: Data("\ncomment".utf8)) != nil
    }

    /// The REPLY for the meeting in `data`, or nil when no event of it names one of `addresses`.
    /// - Parameters:
    ///   - addresses: the account's addresses, normalized (``CalendarUser/normalized(_:)``).
    ///   - partstat: the answer to send instead of the one `data` holds (a decline by deletion).
    ///   - now: the DTSTAMP: DAViCal names the delivered message after its bytes, so two
    ///     replies to one meeting must differ.
    static func message(from data: Data, addresses: Set<String>, partstat: String? = nil, now: Date = Date())
        -> Data?
    {
        guard let parsed = try? ICalendarParser().parse(data),
            let calendar = parsed.components.first(where: { $0.name == "VCALENDAR" })
        else { return nil }
        var events: [Component] = []
        for event in calendar.components where event.name == "VEVENT" {
            guard let organizer = event["ORGANIZER"],
                var own = event.properties.first(where: {
                    $0.name == "ATTENDEE" && addresses.contains(CalendarUser.normalized($0.value))
                })
            else { continue }
            for name in ["RSVP", "SCHEDULE-AGENT", "SCHEDULE-STATUS", "SCHEDULE-FORCE-SEND"] {
                own.setParameter(name, nil)
            }
            if let partstat { own.setParameter("PARTSTAT", partstat) }
            // Spelled as calgw's copies are (``UploadForm/withOwnAttendeeRespelled(_:addresses:)``):
            // DAViCal's Outbox fails a REPLY naming the attendee as his principal is named.
            if let respelled = UploadForm.respelled(own.value) { own.value = respelled }
            var properties = [event["UID"], Property(name: "DTSTAMP", value: UploadForm.utcStamp(now))].compactMap {
                $0
            }
            for name in ["RECURRENCE-ID", "DTSTART", "DTEND", "DURATION", "SEQUENCE", "SUMMARY"] {
                properties += event.properties(named: name)
            }
            properties += [organizer, own]
            if partstat == nil { properties += event.properties(named: "COMMENT") }
            events.append(Component(name: "VEVENT", properties: properties))
        }
        guard !events.isEmpty else { return nil }
        let reply = Component(
            name: "VCALENDAR",
            properties: [
                Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: UploadForm.productID),
                Property(name: "METHOD", value: "REPLY"),
            ],
            components: calendar.components.filter { $0.name == "VTIMEZONE" } + events)
        return ICalendarSerializer().data([reply])
    }
}
