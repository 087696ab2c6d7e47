import Foundation

/// An error with a code to branch on, a message that names what failed, what to do about it,
/// and the error underneath: the shape of the error model (``ExplainedError``) as one generic
/// type, so that a module declares its errors by declaring their codes.
///
/// Each kind of failure is an enum of codes (the sync library's `SyncFailure`,
/// `JournalFailure`, `SingleFileFailure`, `SubscriptionFailure`, `CredentialFailure`) and its
/// error a name for this type with it (`SyncError`, `JournalError`, …), so that every one
/// prints, explains and chains alike, takes its exit code from its code's ``FailureCode/kind``,
/// and is matched by code (``ExplainedError/errorCode``) without its type being named.
public struct CodedError<Code: FailureCode>: Error, LocalizedError, Sendable, CustomStringConvertible {
    /// What kind of failure, to branch on.
    public var code: Code
    /// What failed, in words, naming what it concerns.
    public var message: String
    /// What the person can do about it; nil where the message says all.
    public var recovery: String?
    /// The error underneath (SQLite's, the file system's, a storage's), for logs and `-v`.
    public var cause: (any Error)?

    /// An error with `code` and `message`, and what is known of the recovery and the cause.
    public init(_ code: Code, _ message: String, recovery: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.recovery = recovery
        self.cause = cause
    }

    /// The message.
    public var description: String { message }
    /// The message, which is what a `LocalizedError` shows.
    public var errorDescription: String? { message }
    /// The recovery suggestion, for a `LocalizedError`'s reader.
    public var recoverySuggestion: String? { recovery }
}

/// A code of ``CodedError``: names the failure and says how it ends a command.
public protocol FailureCode: Sendable, Equatable {
    /// How an error of this code ends a command; `.failed` unless a code says otherwise.
    var kind: FailureKind { get }
}

extension FailureCode {
    /// `.failed`, unless the code says otherwise.
    public var kind: FailureKind { .failed }
}

extension CodedError: ExplainedError {
    /// The code's name, e.g. `massDeletion`.
    public var errorCode: String { "\(code)" }
    /// What the code says of how the failure ends a command.
    public var kind: FailureKind { code.kind }
}
