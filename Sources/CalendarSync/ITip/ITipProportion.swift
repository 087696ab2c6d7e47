import ICalendar

/// What makes an invitation by mail out of proportion for a person's calendar: anyone can mail
/// one, and a series that recurs every second (`FREQ=SECONDLY;COUNT=2000000000`) or a meeting
/// with thousands of attendees would reach every device that syncs the calendar, and every
/// listing of it. Such an invitation is held: `itip` says why, writes nothing, and takes it
/// only when asked (`--take-large`). Pure.
extension ITipMessage {
    /// The most attendees an invitation brings without being held.
    static let attendeeLimit = 1_000

    /// Why this message is out of proportion, in words; nil when it is not.
    public var outOfProportion: String? {
        for event in events {
            for rule in event.properties(named: "RRULE") {
                if let why = Self.tooFrequent(rule.value) { return why }
            }
            let attendees = event.properties(named: "ATTENDEE").count
            if attendees > Self.attendeeLimit {
                return "it invites \(attendees) people (more than \(Self.attendeeLimit))"
            }
        }
        return nil
    }

    /// Why the rule `value` recurs more often than hourly, or an unbounded number of times a
    /// day; nil when it does not (or does not parse: such a rule is not expanded).
    static func tooFrequent(_ value: String) -> String? {
        guard let rule = try? RecurrenceRule(parsing: value) else { return nil }
        if rule.frequency < .hourly {
            return "its series recurs \(rule.frequency.rawValue.lowercased()) (RRULE:\(value)), more often than hourly"
        }
        // BYHOUR, BYMINUTE and BYSECOND multiply the occurrences of each day.
        let perDay = [rule.byHour, rule.byMinute, rule.bySecond].reduce(1) { $0 * max(1, $1.count) }
        if perDay > 24 {
            return "its series makes \(perDay) occurrences a day (RRULE:\(value)), more than one an hour"
        }
        return nil
    }
}
