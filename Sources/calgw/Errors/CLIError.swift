import Failures

/// An error the command reports itself: what happened, what to do next, and the exit code.
struct CLIError: ExplainedError {
    var message: String
    var hint: String?
    var status: ExitStatus

    init(_ message: String, hint: String? = nil, status: ExitStatus = .failure) {
        self.message = message
        self.hint = hint
        self.status = status
    }

    var description: String { message }
    var errorCode: String { "command" }
    var recovery: String? { hint }
    var cause: (any Error)? { nil }
    var kind: FailureKind { FailureKind(status) }
}

/// A run that reported its problems already and only needs to end with `status`.
struct ExitWithStatus: Error {
    var status: ExitStatus
}
