import ICalendar

/// The person's part in a meeting, found by their calendar addresses (each as
/// ``CalendarUser/normalized(_:)`` gives it): whether they organize it, and their attendee line
/// with their answer. What an answer, the invitations awaiting one and `list` all ask.
public enum OwnPart {
    /// True when the event's ORGANIZER is one of `addresses`.
    public static func organizes(_ event: Component, addresses: Set<String>) -> Bool {
        event["ORGANIZER"].map { addresses.contains(CalendarUser.normalized($0.value)) } ?? false
    }

    /// The position of the person's ATTENDEE line among the event's properties, and their
    /// PARTSTAT (upper-cased; NEEDS-ACTION when none, as RFC 5545 says); nil when the event does
    /// not name them.
    public static func attendee(_ event: Component, addresses: Set<String>) -> (index: Int, answer: String)? {
        guard
            let index = event.properties.firstIndex(where: {
                $0.name == "ATTENDEE" && addresses.contains(CalendarUser.normalized($0.value))
            })
        else { return nil }
        return (index, event.properties[index][parameter: "PARTSTAT"]?.uppercased() ?? "NEEDS-ACTION")
    }
}
