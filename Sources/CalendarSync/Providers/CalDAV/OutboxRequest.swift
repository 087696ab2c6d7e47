import Foundation
import ICalendar

/// The organizer's REQUEST (RFC 5546 §3.2.2) the client sends one attendee by POST to the
/// schedule Outbox (RFC 6638 §5) where the server's own message leaves part of a change out
/// (``DAViCalAttendeeUpdate``): the organizer's whole version, in the form DAViCal 1.1.12's
/// Outbox delivers.
///
/// - DAViCal delivers the first event of a posted message only, so each event of the meeting
///   (the series, then each override) goes in a message of its own; each later one is stamped a
///   second after the one before, so that the attendee's client applies the series first
///   (it replaces every event of the meeting) and the overrides on top.
/// - It delivers to the attendees marked `PARTSTAT=NEEDS-ACTION` only, and skips those with a
///   SCHEDULE-STATUS of 3.3 to 5.9: the recipient is marked NEEDS-ACTION (an attendee's client
///   keeps his own answer where the time did not change, RFC 5546 §3.2.2.1), every other
///   attendee awaiting an answer is given status 5.3, so the message reaches the one person.
/// - Where an Inbox is a calendar (as DAViCal's admin screen makes them), DAViCal files the
///   message as a stored object and schedules for it as for the organizer's own write, which
///   fails on the attendee's copy of the meeting: the ORGANIZER and the account's own ATTENDEE
///   line are spelled with the domain's case changed (``UploadForm/respelled(_:)``), the same
///   mailbox, which DAViCal compares exactly and so takes for no one's. The attendee's calgw
///   spells them back.
enum OutboxRequest {
    /// The messages for `recipient` (a normalised address) of the meeting in `data`; none when
    /// `data` does not parse or holds no event.
    /// - Parameters:
    ///   - own: the account's addresses, normalised.
    ///   - stamp: the first message's DTSTAMP: later than the organizer's version, so that it
    ///     comes after the server's own message for the same change.
    static func messages(from data: Data, to recipient: String, own: Set<String>, stamp: Date) -> [Data] {
        guard let calendar = (try? ICalendarParser().parse(data))?.components.first(where: { $0.name == "VCALENDAR" })
        else { return [] }
        let zones = calendar.components.filter { $0.name == "VTIMEZONE" }
        let events = calendar.components.filter { $0.name == "VEVENT" }
        let ordered = events.filter { $0["RECURRENCE-ID"] == nil } + events.filter { $0["RECURRENCE-ID"] != nil }
        return ordered.enumerated().map { index, event in
            let message = Component(
                name: "VCALENDAR",
                properties: [
                    Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: UploadForm.productID),
                    Property(name: "METHOD", value: "REQUEST"),
                ],
                components: zones + [
                    addressed(event, to: recipient, own: own, stamp: stamp.addingTimeInterval(Double(index)))
                ])
            return ICalendarSerializer().data([message])
        }
    }

    /// `event` as the message to `recipient` carries it.
    private static func addressed(_ event: Component, to recipient: String, own: Set<String>, stamp: Date)
        -> Component
    {
        var event = event
        event.components.removeAll { $0.name == "VALARM" }
        event.set(Property(name: "DTSTAMP", value: UploadForm.utcStamp(stamp)))
        for k in event.properties.indices where ["ORGANIZER", "ATTENDEE"].contains(event.properties[k].name) {
            var person = event.properties[k]
            for name in ["SCHEDULE-STATUS", "SCHEDULE-AGENT", "SCHEDULE-FORCE-SEND"] { person.setParameter(name, nil) }
            let address = CalendarUser.normalized(person.value)
            if person.name == "ORGANIZER" || own.contains(address) {
                person.value = UploadForm.respelled(person.value) ?? person.value
            }
            if person.name == "ATTENDEE", address == recipient {
                person.setParameter("PARTSTAT", "NEEDS-ACTION")
            } else if person.name == "ATTENDEE", person[parameter: "PARTSTAT"]?.uppercased() == "NEEDS-ACTION" {
                person.setParameter("SCHEDULE-STATUS", "5.3")
            }
            event.properties[k] = person
        }
        return event
    }
}
