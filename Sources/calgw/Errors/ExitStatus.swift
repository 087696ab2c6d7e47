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
