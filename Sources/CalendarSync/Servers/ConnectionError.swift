import Failures

/// A server could not be reached as its settings say, before any request: a secret that
/// could not be read, a sign-in command that failed, a malformed pin, HTTP that could not be
/// set up.
public typealias ConnectionError = CodedError<ConnectionFailure>

/// What went wrong in making a server's client (``ConnectionError``).
public enum ConnectionFailure: Sendable, Equatable {
    /// A password is configured without a user name (a usage error).
    case passwordWithoutUsername
    /// The environment variable said to hold the password is not set (a usage error).
    case variableNotSet
    /// The password file cannot be read (a usage error).
    case secretFileUnreadable
    /// The password file can be read by others (a usage error: calgw refuses it).
    case secretFileExposed
    /// The password or token command is empty (a usage error).
    case commandEmpty
    /// The password or token command's program is not installed (a usage error).
    case commandNotFound
    /// The password or token command could not be run, or failed (an authentication failure).
    case commandFailed
    /// The pinned public key is not `sha256//BASE64` (a usage error).
    case malformedPin
    /// The HTTP client could not be set up.
    case httpSetup
}

extension ConnectionFailure: FailureCode {
    /// `.authentication` for a failed sign-in command, `.failed` for HTTP set-up, `.usage`
    /// for the rest: the configuration is to be fixed.
    public var kind: FailureKind {
        switch self {
        case .commandFailed: .authentication
        case .httpSetup: .failed
        default: .usage
        }
    }
}
