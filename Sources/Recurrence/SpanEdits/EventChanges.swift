import ICalendar

/// The fields one edit changes; a nil field is left as it is, an empty text removes the property.
public struct EventChanges: Sendable, Equatable {
    /// A new SUMMARY.
    public var summary: String?
    /// A new LOCATION.
    public var location: String?
    /// A new DESCRIPTION.
    public var description: String?
    /// A new STATUS (`CONFIRMED`, `TENTATIVE`, `CANCELLED`).
    public var status: String?
    /// A new start. Without a new end or duration the event keeps its length.
    public var start: DateTimeValue?
    /// A new end (exclusive), replacing DTEND or DURATION.
    public var end: DateTimeValue?
    /// A new length, replacing DTEND or DURATION.
    public var duration: ICalDuration?
    /// A new RRULE for the series (whole series or this-and-future only).
    public var recurrenceRule: RecurrenceRule?

    /// Changes to the fields given; every other field is left as it is.
    public init(
        summary: String? = nil, location: String? = nil, description: String? = nil, status: String? = nil,
        start: DateTimeValue? = nil, end: DateTimeValue? = nil, duration: ICalDuration? = nil,
        recurrenceRule: RecurrenceRule? = nil
    ) {
        self.summary = summary
        self.location = location
        self.description = description
        self.status = status
        self.start = start
        self.end = end
        self.duration = duration
        self.recurrenceRule = recurrenceRule
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool { self == EventChanges() }

    /// Applies the changes to one VEVENT. Returns how far DTSTART moved, in wall-clock seconds,
    /// so the caller can move what is pinned to the old start (RECURRENCE-IDs, EXDATEs).
    /// - Throws: `SpanEditError.invalidChange` when the event would end before it starts.
    @discardableResult
    func apply(to event: inout Component, frame: DateTimeFrame) throws -> Int64 {
        for (name, text) in [("SUMMARY", summary), ("LOCATION", location), ("DESCRIPTION", description)] {
            guard let text else { continue }
            if text.isEmpty { event.remove(name) } else { event.set(.text(name, text)) }
        }
        if let status {
            if status.isEmpty {
                event.remove("STATUS")
            } else {
                event.set(Property(name: "STATUS", value: status.uppercased()))
            }
        }
        if let recurrenceRule { event.set(Property(name: "RRULE", value: recurrenceRule.description)) }

        var startShift: Int64 = 0
        let oldStart = event["DTSTART"]?.dateTime
        let oldEnd = event["DTEND"]?.dateTime
        if let start {
            event.set(.dateTime("DTSTART", start, parameters: event["DTSTART"]?.parameters ?? []))
            if let oldStart {
                startShift = frame.wallClockSeconds(from: frame.convert(oldStart, to: start.form), to: start)
                if end == nil, duration == nil, let oldEnd {
                    // Keep the length (exact for timed values, RFC 5545 §3.8.5.3); when the event
                    // turns all-day or timed, take that kind's default.
                    let newEnd =
                        oldStart.isDate == start.isDate
                        ? frame.end(ofInstanceAt: start, seriesStart: oldStart, seriesEnd: oldEnd, in: start.form)
                        : frame.shifted(start, bySeconds: start.isDate ? 86_400 : 3_600)
                    event.set(.dateTime("DTEND", newEnd, parameters: event["DTEND"]?.parameters ?? []))
                }
            }
        }
        if let end {
            event.remove("DURATION")
            event.set(.dateTime("DTEND", end, parameters: event["DTEND"]?.parameters ?? []))
        } else if let duration {
            event.remove("DTEND")
            event.set(Property(name: "DURATION", value: duration.description))
        }
        if let s = event["DTSTART"]?.dateTime, let e = event["DTEND"]?.dateTime, !frame.atOrAfter(e, s) {
            throw SpanEditError.invalidChange("the event would end (\(e)) before it starts (\(s))")
        }
        return startShift
    }
}
