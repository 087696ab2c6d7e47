import ICalendar

/// An RRULE given on the command line, checked against the series' DTSTART as RFC 5545
/// §3.3.10 requires: UNTIL in UTC for zoned and UTC starts, a date for all-day ones,
/// floating for floating ones.
enum RuleArgument {
    static func parse(_ text: String, start: DateTimeValue) throws -> RecurrenceRule {
        let body = text.hasPrefix("RRULE:") ? String(text.dropFirst(6)) : text
        let rule: RecurrenceRule
        do { rule = try RecurrenceRule(parsing: body) } catch {
            throw CLIError(
                "--rrule \(text): \(error)", hint: "for example FREQ=WEEKLY;BYDAY=MO;COUNT=10", status: .usage)
        }
        if let until = rule.until {
            let expected: String? =
                switch start.form {
                case .date: until.isDate ? nil : "a date (UNTIL=\(until.date.description))"
                case .floating: until.form == .floating ? nil : "a floating time like UNTIL=\(until.local.description)"
                case .utc, .zoned: until.form == .utc ? nil : "a UTC time like UNTIL=\(until.local.description)Z"
                }
            if let expected {
                throw CLIError(
                    "--rrule \(text): UNTIL must be \(expected) for this start (RFC 5545 §3.3.10)", status: .usage)
            }
        }
        return rule
    }
}
