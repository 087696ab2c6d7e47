import ICalendar

extension Series {
    /// DTSTART and DTEND (DUE for a VTODO) of `component` as its occurrences are read.
    ///
    /// RFC 5545 wants both of one value type (§3.8.2.2). When one is a DATE and the other a
    /// DATE-TIME, the DATE is read as midnight of its day in the other's form (UTC, its zone,
    /// or floating), as recurring-ical-events reads it: a DATE DTSTART with a UTC DTEND is an
    /// event (and a series) from 00:00 UTC, not an all-day one; a DATE DTEND of a timed DTSTART
    /// ends at midnight of that day in DTSTART's zone. `lint` warns at such a DTEND.
    static func times(of component: Component) -> (start: DateTimeValue?, end: DateTimeValue?) {
        let start = component["DTSTART"]?.dateTime
        let end = (component["DTEND"] ?? component["DUE"])?.dateTime
        guard let start, let end, start.isDate != end.isDate else { return (start, end) }
        if start.isDate { return (DateTimeValue(LocalDateTime(date: start.date), form: end.form), end) }
        return (start, DateTimeValue(LocalDateTime(date: end.date), form: start.form))
    }
}
