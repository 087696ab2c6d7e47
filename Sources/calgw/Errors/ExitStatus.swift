import Failures

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

extension ExitStatus {
    /// The exit code of a failure of `kind`.
    init(_ kind: FailureKind) {
        self =
            switch kind {
            case .failed: .failure
            case .usage: .usage
            case .refusedForSafety: .refusedForSafety
            case .authentication: .authenticationFailed
            }
    }
}

extension FailureKind {
    /// The kind of failure an exit status stands for (a success or unresolved conflicts are
    /// not failures of their own and count as `.failed`).
    init(_ status: ExitStatus) {
        self =
            switch status {
            case .usage: .usage
            case .refusedForSafety: .refusedForSafety
            case .authenticationFailed: .authentication
            case .success, .failure, .unresolvedConflicts: .failed
            }
    }
}
