import ICalendar

/// A new event as `calgw event add` describes it, turned into a complete calendar resource.
///
/// Pure: the caller supplies the UID and the clock, so the same draft always gives the same
/// bytes. All-day events are written as DATE values with an exclusive DTEND (RFC 5545
/// §3.6.1); a zoned start carries its TZID and the resource embeds no VTIMEZONE, as CalDAV
/// servers and clients resolve IANA names themselves.
public struct NewEvent: Sendable, Equatable {
    /// SUMMARY.
    public var summary: String
    /// DTSTART: a DATE for an all-day event, else a date-time (UTC, zoned or floating).
    public var start: DateTimeValue
    /// The end (exclusive). Without it and without `duration`, a timed event lasts one hour
    /// and an all-day event one day.
    public var end: DateTimeValue?
    /// The length, instead of an end.
    public var duration: ICalDuration?
    /// The RRULE of a recurring event; nil for a single one.
    public var recurrenceRule: RecurrenceRule?
    /// LOCATION, when given.
    public var location: String?
    /// DESCRIPTION, when given.
    public var description: String?

    /// An event starting at `start`, with the fields given.
    public init(
        summary: String, start: DateTimeValue, end: DateTimeValue? = nil, duration: ICalDuration? = nil,
        recurrenceRule: RecurrenceRule? = nil, location: String? = nil, description: String? = nil
    ) {
        self.summary = summary
        self.start = start
        self.end = end
        self.duration = duration
        self.recurrenceRule = recurrenceRule
        self.location = location
        self.description = description
    }

    /// The VCALENDAR holding the event: UID, DTSTAMP, CREATED, LAST-MODIFIED, SEQUENCE 0.
    /// - Parameter now: a UTC date-time.
    /// - Throws: `SpanEditError.invalidChange` when the end is not after the start, or the end
    ///   and the start are of different kinds (a date and a date-time).
    public func resource(uid: String, now: DateTimeValue) throws -> Component {
        let frame = DateTimeFrame(resolver: TimeZoneResolver())
        var event = Component(name: "VEVENT")
        event.append(.text("UID", uid))
        for name in ["DTSTAMP", "CREATED", "LAST-MODIFIED"] { event.append(.dateTime(name, now)) }
        event.append(Property(name: "SEQUENCE", value: "0"))
        event.append(.dateTime("DTSTART", start))
        if let end {
            guard end.isDate == start.isDate else {
                throw SpanEditError.invalidChange(
                    "the start \(start) and the end \(end) must both be dates or both date-times")
            }
            guard frame.atOrAfter(end, start), !frame.same(end, start) else {
                throw SpanEditError.invalidChange("the event would end (\(end)) before it starts (\(start))")
            }
            event.append(.dateTime("DTEND", end))
        } else if let duration {
            guard !duration.isNegative else {
                throw SpanEditError.invalidChange("the duration \(duration) is negative")
            }
            event.append(Property(name: "DURATION", value: duration.description))
        } else {
            event.append(.dateTime("DTEND", frame.shifted(start, bySeconds: start.isDate ? 86_400 : 3_600)))
        }
        if let recurrenceRule { event.append(Property(name: "RRULE", value: recurrenceRule.description)) }
        event.append(.text("SUMMARY", summary))
        if let location, !location.isEmpty { event.append(.text("LOCATION", location)) }
        if let description, !description.isEmpty { event.append(.text("DESCRIPTION", description)) }
        return Component(
            name: "VCALENDAR",
            properties: [
                Property(name: "VERSION", value: "2.0"),
                Property(name: "PRODID", value: "-//calgw//calgw//EN"),
            ], components: [event])
    }
}
