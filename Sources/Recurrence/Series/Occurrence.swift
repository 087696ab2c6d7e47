import ICalendar

/// One occurrence of an event: where it starts and ends, which instance of its series it is,
/// and the component (the master or an override) that describes it.
public struct Occurrence: Hashable, Sendable {
    /// The UID of the series.
    public var uid: String
    /// The instance's original start in the master DTSTART's form, or nil for an event that
    /// does not recur.
    public var recurrenceID: DateTimeValue?
    /// The start, in the form of the component's DTSTART (date, floating, UTC or zoned).
    public var start: DateTimeValue
    /// The end (DTEND, or DTSTART plus DURATION, or the start / next day when neither is given).
    public var end: DateTimeValue
    /// The start as seconds since 1970-01-01T00:00:00Z; floating times and dates are read in the
    /// query's zone.
    public var startInstant: Int64
    /// The end as seconds since the epoch, read like `startInstant`.
    public var endInstant: Int64
    /// The component that describes this occurrence: the master, or the override that replaces
    /// it (or applies to it through RANGE=THISANDFUTURE).
    public var component: Component

    /// Whether the occurrence is a whole-day one (its start is a DATE).
    public var isAllDay: Bool { start.isDate }

    /// Whether [start, end) overlaps [from, to); a zero-length occurrence overlaps when it
    /// starts inside the window, as recurring-ical-events' `between()` decides.
    public func overlaps(from: Int64, to: Int64) -> Bool {
        guard startInstant < to else { return false }
        return endInstant > from || (endInstant <= startInstant && startInstant >= from)
    }
}
