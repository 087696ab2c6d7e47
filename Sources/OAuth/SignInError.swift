import Failures

/// An OAuth sign-in that could not be made or used: not signed in, a sign-in that expired or
/// was revoked, a token file others can read, a provider's refusal.
public typealias SignInError = CodedError<SignInFailure>

/// What went wrong with a pair's sign-in (``SignInError``).
public enum SignInFailure: Sendable, Equatable {
    /// The pair has no token: `calgw login` has not run (or `logout` did).
    case notSignedIn
    /// The provider refused the refresh token (`invalid_grant`): expired, revoked, or
    /// replaced; only a new sign-in helps.
    case signInExpired
    /// The provider refused the sign-in (the person declined, a wrong client, a scope it
    /// does not grant).
    case refused
    /// The token file can be read by others, or is not the person's: calgw will not use it.
    case tokenFileExposed
    /// The token file cannot be read, written or parsed.
    case tokenFileUnreadable
    /// Nobody answered in the browser before calgw stopped waiting.
    case timedOut
    /// An answer reached the listener or was pasted that does not belong to this sign-in.
    case wrongAnswer
    /// The provider's answer was not what OAuth 2.0 says it is.
    case malformedAnswer
    /// The sign-in's settings are incomplete or contradict each other.
    case misconfigured
    /// The device grant is not offered for this provider.
    case deviceGrantUnavailable
}

extension SignInFailure: FailureCode {
    /// An authentication failure (exit 5) for what a new sign-in fixes, a usage error for the
    /// settings and the token file's mode, a plain failure for the rest.
    public var kind: FailureKind {
        switch self {
        case .notSignedIn, .signInExpired, .refused: .authentication
        case .tokenFileExposed, .misconfigured, .deviceGrantUnavailable: .usage
        case .tokenFileUnreadable, .timedOut, .wrongAnswer, .malformedAnswer: .failed
        }
    }
}
