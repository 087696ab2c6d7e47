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

    /// The instance `recurrenceID` names, as the series' rule writes it (in the master DTSTART's
    /// form): `recurrenceID` itself, except that a rule time in a DST gap stands for the same
    /// instant as the clock time after the gap (RFC 5545 §3.3.5), and the rule's own time is
    /// what a series split there must start at to keep the rule's later clock times.
    func ruleTime(of recurrenceID: DateTimeValue) -> DateTimeValue
}

extension SeriesInstanceIndex {
    /// `recurrenceID` itself: for indexes of series whose times all exist.
    public func ruleTime(of recurrenceID: DateTimeValue) -> DateTimeValue { recurrenceID }
}
