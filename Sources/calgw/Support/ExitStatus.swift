/// calgw's exit codes (CLI.md): scripts branch on these.
enum ExitStatus: Int32 {
    /// Success.
    case success = 0
    /// An error; nothing half-done, rerunning is safe.
    case failure = 1
    /// Usage or configuration error.
    case usage = 2
    /// Conflicts left unresolved.
    case unresolvedConflicts = 3
    /// Refused for safety (mass deletion).
    case refusedForSafety = 4
    /// Authentication failed.
    case authenticationFailed = 5
}

/// An error the command reports itself: what happened, what to do next, and the exit code.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var hint: String?
    var status: ExitStatus

    init(_ message: String, hint: String? = nil, status: ExitStatus = .failure) {
        self.message = message
        self.hint = hint
        self.status = status
    }

    var description: String { message }
}

/// A run that reported its problems already and only needs to end with `status`.
struct ExitWithStatus: Error {
    var status: ExitStatus
}
