import ICalendar

/// What a span edit needs to know about a series' instances, answered by the expander.
///
/// Kept as a protocol so the editing rules stay independent of how instances are computed.
public protocol SeriesInstanceIndex: Sendable {
    /// Whether `recurrenceID` (in the master DTSTART's form) is the original start of an
    /// instance of the series: DTSTART itself, an RRULE instance or an RDATE, EXDATEs ignored.
    func isInstance(_ recurrenceID: DateTimeValue) -> Bool

    /// How many instances the series' RRULE generates (DTSTART counting as the first) that
    /// start before `recurrenceID`, EXDATEs ignored, as COUNT counts them.
    func ruleInstanceCount(before recurrenceID: DateTimeValue) -> Int
}
