import Failures

/// The config file is missing, unreadable or wrong: exit 2 with what and where.
struct ConfigError: ExplainedError {
    var message: String
    var hint: String?

    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    var description: String { message }
    var errorCode: String { "config" }
    var recovery: String? { hint }
    var cause: (any Error)? { nil }
    var kind: FailureKind { .usage }
}
