/// The parts of an event that make its series (RRULEs, RDATEs, EXDATEs), read alone: a series
/// is built from them for every file a listing reads, which need not read the rest of the
/// ``Event`` (attendees, alarms, categories) for it.
public struct EventRecurrence: Hashable, Sendable {
    /// RRULEs, read as `RecurrenceRule.reading` reads them (a negative COUNT left out), with
    /// DTSTART's zone for an UNTIL without `Z`.
    public var rules: [RecurrenceRule]
    /// The RRULE values no reader can take, as written.
    public var unreadableRules: [String]
    /// RDATEs: DATE / DATE-TIME values and PERIODs.
    public var dates: [RecurrenceDate]
    /// EXDATEs.
    public var exceptionDates: [DateTimeValue]

    /// The recurrence of `component`.
    public init(_ component: Component) {
        let tzid = component["DTSTART"]?.dateTime?.tzid
        var rules: [RecurrenceRule] = [], unreadable: [String] = []
        for property in component.properties(named: "RRULE") {
            if let rule = RecurrenceRule.reading(property.value, tzid: tzid) {
                rules.append(rule)
            } else {
                unreadable.append(property.value)
            }
        }
        self.rules = rules
        unreadableRules = unreadable
        dates = component.properties(named: "RDATE").flatMap { p -> [RecurrenceDate] in
            p[parameter: "VALUE"]?.uppercased() == "PERIOD"
                ? p.periods.map(RecurrenceDate.period) : p.dateTimes.map(RecurrenceDate.dateTime)
        }
        exceptionDates = component.properties(named: "EXDATE").flatMap(\.dateTimes)
    }
}
