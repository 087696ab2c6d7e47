import ICalendar

/// Every event series of one calendar (a VCALENDAR, one .ics file), ready to expand.
///
/// ```swift
/// let calendar = try ICalendarParser().parse(text).calendar!
/// let expansion = CalendarExpansion(calendar: calendar)
/// for o in expansion.occurrences(from: from, to: to, floatingZone: zone) { print(o.uid, o.start) }
/// ```
public struct CalendarExpansion: Sendable {
    /// The series, by UID, in the order their first component appears.
    public let series: [Series]
    /// The calendar's time zones, by TZID, as occurrences are read in.
    public let resolver: TimeZoneResolver

    /// - Parameters:
    ///   - calendar: a VCALENDAR (or any component whose children are VEVENTs and VTIMEZONEs).
    ///   - componentNames: the components expanded; VEVENT by default.
    public init(calendar: Component, componentNames: Set<String> = ["VEVENT"]) {
        let resolver = TimeZoneResolver(calendar: calendar)
        self.resolver = resolver
        var order: [String] = []
        var byUID: [String: [Component]] = [:]
        var anonymous = 0
        // A file may hold a bare VEVENT instead of a VCALENDAR.
        let members = componentNames.contains(calendar.name) ? [calendar] : calendar.components
        for c in members where componentNames.contains(c.name) {
            var uid = c["UID"]?.text ?? ""
            if uid.isEmpty { anonymous += 1; uid = "\u{0}anonymous-\(anonymous)" }
            if byUID[uid] == nil { order.append(uid) }
            byUID[uid, default: []].append(c)
        }
        series = order.map { Series(components: byUID[$0]!, resolver: resolver) }
    }

    /// Every series of several top-level components (a parsed file's `components`).
    public init(components: [Component], componentNames: Set<String> = ["VEVENT"]) {
        let calendars = components.filter { $0.name == "VCALENDAR" }
        if calendars.count == 1 && components.count == 1 {
            self.init(calendar: calendars[0], componentNames: componentNames)
        } else {
            var merged = Component(name: "VCALENDAR")
            for c in components {
                if c.name == "VCALENDAR" { merged.components += c.components } else { merged.components.append(c) }
            }
            self.init(calendar: merged, componentNames: componentNames)
        }
    }

    /// The occurrences of every series overlapping [from, to), sorted by start, then UID.
    /// - Parameters:
    ///   - from: window start, seconds since the epoch.
    ///   - to: window end (exclusive).
    ///   - floatingZone: the zone floating times and dates are read in.
    ///   - includeCancelled: keep STATUS:CANCELLED overrides as occurrences instead of hiding them.
    public func occurrences(
        from: Int64, to: Int64, floatingZone: any ZoneRules = FixedOffsetZone.utc,
        includeCancelled: Bool = false
    ) -> [Occurrence] {
        var all: [Occurrence] = []
        for s in series {
            all += s.occurrences(from: from, to: to, floatingZone: floatingZone, includeCancelled: includeCancelled)
        }
        all.sort { a, b in
            if a.startInstant != b.startInstant { return a.startInstant < b.startInstant }
            if a.uid != b.uid { return a.uid < b.uid }
            return a.endInstant < b.endInstant
        }
        return all
    }
}
