import ICalendar

/// What DAViCal 1.1.12 sends an attendee it invited before, for the organizer's change of a
/// meeting (`do_scheduling_requests` in its `caldav-PUT-functions.php`): not the organizer's
/// version, but the attendee's stored copy's first event with only some properties of the
/// organizer's first event taken over (``carried``). Everything else of the change never
/// reaches them: a cancelled occurrence (EXDATE), a series cut short (RRULE's UNTIL), added
/// dates, the overrides, the other properties. Pure: it compares two versions of the meeting.
enum DAViCalAttendeeUpdate {
    /// The properties of the organizer's first event DAViCal copies into the attendee's copy.
    static let carried: Set<String> = [
        "DTSTAMP", "SEQUENCE", "DTSTART", "DTEND", "DURATION", "SUMMARY", "LOCATION", "DESCRIPTION", "GEO",
        "RESOURCES", "STATUS", "ATTENDEE",
    ]

    /// Properties no attendee's copy is to follow the organizer's in: when the organizer's
    /// client last wrote, and the ORGANIZER itself (it does not change).
    private static let ownOnly: Set<String> = ["LAST-MODIFIED", "CREATED", "ORGANIZER", "DTSTAMP", "SEQUENCE"]

    /// Whether DAViCal's update for the change from `before` to `after` (VCALENDARs of one
    /// meeting) leaves some of it out: the events differ beyond what DAViCal carries of the
    /// first one (alarms are the organizer's own and do not count).
    static func leavesOut(before: Component, after: Component) -> Bool {
        fingerprint(before) != fingerprint(after)
    }

    /// The attendees of `after` who were attendees of `before` as well, neither the organizer
    /// nor the account (`own`, normalised), whom the server schedules for (no
    /// `SCHEDULE-AGENT` other than SERVER) and could deliver to before (no SCHEDULE-STATUS of
    /// 3.x or 5.x in `before`: not one of its users): those DAViCal sends its partial update
    /// to. A new attendee gets the organizer's whole version from DAViCal. Normalised
    /// addresses, in `after`'s order.
    static func earlierAttendees(before: Component, after: Component, own: Set<String>) -> [String] {
        let earlier = Set(
            attendees(of: before).filter { attendee in
                let status = attendee[parameter: "SCHEDULE-STATUS"] ?? ""
                return !status.hasPrefix("3") && !status.hasPrefix("5")
            }.map { CalendarUser.normalized($0.value) })
        let organizer = events(of: after).lazy.compactMap { $0["ORGANIZER"]?.value }.first.map(CalendarUser.normalized)
        var seen: Set<String> = []
        return attendees(of: after).compactMap { attendee in
            let address = CalendarUser.normalized(attendee.value)
            let agent = attendee[parameter: "SCHEDULE-AGENT"]?.uppercased() ?? "SERVER"
            guard earlier.contains(address), !own.contains(address), address != organizer, agent == "SERVER",
                seen.insert(address).inserted
            else { return nil }
            return address
        }
    }

    /// The meeting's events as DAViCal's update would not carry them: the first without the
    /// carried properties, the others whole; alarms, the organizer's own properties and the
    /// server's delivery marks (SCHEDULE-STATUS, SCHEDULE-AGENT) left out of each. Lines are
    /// sorted: a server that rewrites the stored version may reorder them.
    private static func fingerprint(_ calendar: Component) -> [String] {
        events(of: calendar).enumerated().map { index, event in
            var kept = event
            kept.properties = event.properties.filter {
                !ownOnly.contains($0.name) && (index > 0 || !carried.contains($0.name))
            }.map { property in
                var property = property
                property.setParameter("SCHEDULE-STATUS", nil)
                property.setParameter("SCHEDULE-AGENT", nil)
                return property
            }
            kept.components.removeAll { $0.name == "VALARM" }
            return ICalendarSerializer().string(kept).split(separator: "\r\n").sorted().joined(separator: "\n")
        }
    }

    private static func events(of calendar: Component) -> [Component] {
        calendar.components.filter { $0.name == "VEVENT" }
    }

    private static func attendees(of calendar: Component) -> [Property] {
        events(of: calendar).flatMap { $0.properties(named: "ATTENDEE") }
    }
}
