/// The zone a whole calendar names in `X-WR-TIMEZONE`, applied to its floating times.
///
/// Google Calendar and Apple Calendar exports name the calendar's zone in the non-standard
/// `X-WR-TIMEZONE` and may write the events' times floating, meaning that zone. Readers that
/// honour it (python's x-wr-timezone, and through it recurring-ical-events; Thunderbird's
/// import) read those times in it, and so does calgw when it lists occurrences: a floating
/// DTSTART, DTEND, RDATE, EXDATE or RECURRENCE-ID of a VEVENT gets the zone as its TZID.
///
/// UTC times keep their form: they name an instant already (RFC 5545 §3.3.5), and a UTC series
/// keeps recurring in UTC. Dates stay dates. A zone that does not resolve changes nothing.
/// Only the copy that is expanded changes; the file is synced byte for byte as written.
public enum DeclaredCalendarZone {
    /// The properties whose floating times the declared zone applies to.
    static let timeProperties: Set<String> = ["DTSTART", "DTEND", "RDATE", "EXDATE", "RECURRENCE-ID"]

    /// The zone `calendar` declares, when it is a VCALENDAR with an `X-WR-TIMEZONE`.
    public static func identifier(of calendar: Component) -> String? {
        guard calendar.name == "VCALENDAR", let name = calendar["X-WR-TIMEZONE"]?.text.trimmingCharacters(in: " ")
        else { return nil }
        return name.isEmpty ? nil : name
    }

    /// `calendar` with its VEVENTs' floating times read in the zone it declares; `calendar`
    /// itself when it declares none, or one that neither its VTIMEZONEs nor calgw know.
    public static func applied(to calendar: Component) -> Component {
        guard let tzid = identifier(of: calendar), TimeZoneResolver(calendar: calendar).zone(for: tzid) != nil else {
            return calendar
        }
        var result = calendar
        for i in result.components.indices where result.components[i].name == "VEVENT" {
            for j in result.components[i].properties.indices {
                let p = result.components[i].properties[j]
                if timeProperties.contains(p.name) && p.tzid == nil && holdsFloatingTime(p) {
                    result.components[i].properties[j].setParameter("TZID", tzid)
                }
            }
        }
        return result
    }

    /// Whether a time property holds a floating DATE-TIME (or a PERIOD starting at one).
    static func holdsFloatingTime(_ p: Property) -> Bool {
        if p[parameter: "VALUE"]?.uppercased() == "PERIOD" { return p.periods.contains { $0.start.form == .floating } }
        return p.dateTimes.contains { $0.form == .floating }
    }
}
