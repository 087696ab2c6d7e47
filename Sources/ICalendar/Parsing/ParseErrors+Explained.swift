import Failures

extension ICalendarSyntaxError: ExplainedError {
    public var errorCode: String { "syntax" }
    public var message: String { description }
    public var recovery: String? { "correct that line (calgw lint shows every problem); the file is left as it is until then" }
    public var cause: (any Error)? { nil }
}

extension RecurrenceRuleError: ExplainedError {
    public var errorCode: String { "invalidRule" }
    public var recovery: String? { "an RRULE is FREQ=… and optional parts such as COUNT, UNTIL, INTERVAL and BYDAY (RFC 5545 §3.3.10)" }
    public var cause: (any Error)? { nil }
}
