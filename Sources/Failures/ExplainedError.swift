/// An error a person reads: what failed, what to do about it, and what lay beneath.
///
/// Every error of calgw's libraries that can reach a person conforms, so the command prints,
/// explains and chains each one alike and takes its exit code from ``kind``, without knowing
/// the error's type. The conformances sit beside the errors, in each module.
public protocol ExplainedError: Error, CustomStringConvertible {
    /// A stable name for the kind of failure (`preconditionFailed`, `syntax`), for logs,
    /// `-v` and anyone who branches on it without the type at hand.
    var errorCode: String { get }
    /// What failed, in words, naming what it concerns (a file, a URL, a UID).
    var message: String { get }
    /// What the person can do about it; nil where the message is all there is to say.
    var recovery: String? { get }
    /// The error underneath (a system call's, a server's), printed with `-v`.
    var cause: (any Error)? { get }
    /// How the failure ends a command: the exit code CLI.md gives it.
    var kind: FailureKind { get }
    /// Facts beyond the message worth a line with `-v` (a server's status and reason).
    var details: [String] { get }
}

extension ExplainedError {
    /// A plain failure (exit 1), unless the error says otherwise.
    public var kind: FailureKind { .failed }
    /// Nothing beyond the message, unless the error says otherwise.
    public var details: [String] { [] }
}

/// How a failure ends a command, which decides its exit code (CLI.md).
public enum FailureKind: Sendable, Equatable, CaseIterable {
    /// Something failed; nothing is half-done and running again is safe (exit 1).
    case failed
    /// The command or its configuration is wrong: running again as is cannot help (exit 2).
    case usage
    /// The run refused to go on because it would lose data (a mass deletion, exit 4).
    case refusedForSafety
    /// The server refused the credentials (exit 5).
    case authentication
}
