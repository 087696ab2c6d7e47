import ICalendar

/// The alarms of one calendar (a parsed .ics file): the VALARMs of its events and to-dos.
///
/// Events and to-dos are expanded apart, each as ``CalendarExpansion`` expands them. A to-do
/// without DTSTART but with DUE is counted from its DUE (its start and end are both DUE), as
/// recurring-ical-events counts it: RFC 5545 lets a to-do have either.
///
/// ```swift
/// let calendar = CalendarAlarms(components: parsed.components)
/// for a in calendar.alarms(from: now, to: now + 86_400, floatingZone: zone) { … }
/// ```
public struct CalendarAlarms: Sendable {
    /// The calendar's events.
    public let events: CalendarExpansion
    /// The calendar's to-dos (those with only a DUE given a DTSTART equal to it).
    public let todos: CalendarExpansion

    /// - Parameter components: a parsed file's top-level components (a VCALENDAR, or bare
    ///   VEVENTs and VTODOs).
    public init(components: [Component]) {
        events = CalendarExpansion(components: components)
        todos = CalendarExpansion(components: components.map(Self.dueAsStart), componentNames: ["VTODO"])
    }

    /// The calendar's time zones, by TZID.
    public var resolver: TimeZoneResolver { events.resolver }

    /// Whether any event or to-do has a VALARM.
    public var hasAlarms: Bool {
        (events.series + todos.series).contains { series in
            ([series.master].compactMap { $0 } + series.overrides).contains { !$0.components(named: "VALARM").isEmpty }
        }
    }

    /// Every time an alarm goes off in [from, to), sorted by trigger, then UID
    /// (``Series/alarms(from:to:floatingZone:includeAcknowledged:)`` for each series).
    public func alarms(
        from: Int64, to: Int64, floatingZone: any ZoneRules = FixedOffsetZone.utc, includeAcknowledged: Bool = false
    ) -> [AlarmInstant] {
        var all: [AlarmInstant] = []
        for series in events.series + todos.series {
            all += series.alarms(
                from: from, to: to, floatingZone: floatingZone, includeAcknowledged: includeAcknowledged)
        }
        return all.sorted(by: AlarmInstant.precedes)
    }

    /// `component` (a VCALENDAR or a VTODO) with each VTODO that has a DUE and no DTSTART given
    /// DTSTART equal to its DUE; everything else as it is.
    static func dueAsStart(_ component: Component) -> Component {
        var c = component
        if c.name == "VTODO" {
            if c["DTSTART"] == nil, let due = c["DUE"] {
                var start = due
                start.name = "DTSTART"
                c.properties.append(start)
            }
            return c
        }
        guard c.components.contains(where: { $0.name == "VTODO" }) else { return c }
        c.components = c.components.map(dueAsStart)
        return c
    }
}
