import Failures

extension ICalendarSyntaxError: ExplainedError {
    /// `syntax`.
    public var errorCode: String { "syntax" }
    /// `line: reason`.
    public var message: String { description }
    /// Correct that line; the file is left as it is until then.
    public var recovery: String? {
        "correct that line (calgw lint shows every problem); the file is left as it is until then"
    }
    /// None: the parser's own finding.
    public var cause: (any Error)? { nil }
}

extension RecurrenceRuleError: ExplainedError {
    /// `invalidRule`.
    public var errorCode: String { "invalidRule" }
    /// What an RRULE is made of (RFC 5545 §3.3.10).
    public var recovery: String? {
        "an RRULE is FREQ=… and optional parts such as COUNT, UNTIL, INTERVAL and BYDAY (RFC 5545 §3.3.10)"
    }
    /// None: the parser's own finding.
    public var cause: (any Error)? { nil }
}
