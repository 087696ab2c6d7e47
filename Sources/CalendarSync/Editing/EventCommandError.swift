import Failures

/// An error of the library's part of an `event` command, in the command's own words: what
/// failed, what to do next, and how it ends the command (a refused change, a calendar
/// address that cannot be found, a server that could not be asked for one).
public struct EventCommandError: ExplainedError {
    /// What failed.
    public var message: String
    /// What the person can do about it.
    public var recovery: String?
    /// How it ends the command: as the failure underneath it did, else `.failed`.
    public var kind: FailureKind

    /// An error saying `message`, with `recovery`, ending the command as `kind` says.
    public init(_ message: String, recovery: String? = nil, kind: FailureKind = .failed) {
        self.message = message
        self.recovery = recovery
        self.kind = kind
    }

    /// `command`: matched by no caller, the message says it all.
    public var errorCode: String { "command" }
    /// None: the message names what went wrong underneath.
    public var cause: (any Error)? { nil }
    /// The message.
    public var description: String { message }
}
