import Failures
import Foundation
import HTTP
import OAuth

/// Why a run stopped as a whole (per-item problems go to the report's `errors`).
public typealias SyncError = CodedError<SyncFailure>

/// The ways a run stops as a whole.
public enum SyncFailure: Sendable, Equatable {
    /// A side is empty while the journal knows many items (exit 4).
    case massDeletion
    /// A storage failed while scanning.
    case scanFailed
    /// The server refused the credentials (exit 5).
    case authenticationFailed
    /// A calendar named (or needed) that the pair does not have (a usage error, exit 2).
    case unknownCollection
    /// What the pair's kind cannot do, such as an account of a server-to-server pair (a
    /// usage error, exit 2).
    case unsupported
    /// The pair's OAuth sign-in cannot be used: none made, expired or revoked (exit 5), or a
    /// token file others can read (exit 2): the sign-in's own kind of failure.
    case signIn(FailureKind)
}

extension CodedError where Code == SyncFailure {
    /// The error a failed scan of `side` stops the run with.
    static func scanFailed(_ side: Side, _ error: Error) -> SyncError {
        if let signIn = error as? SignInError {
            return SyncError(.signIn(signIn.kind), signIn.message, recovery: signIn.recovery, cause: signIn)
        }
        if let refused = error as? any StorageFailure, refused.kind == .authentication {
            // A server's 401 says so itself; another refusal (a token endpoint's) is worded here.
            let said = (refused as? HTTPError)?.code == .authenticationFailed
            return SyncError(
                .authenticationFailed,
                said ? refused.message : "the server refused the credentials: \(refused.message)",
                recovery: refused.recovery, cause: refused)
        }
        return SyncError(
            .scanFailed, "cannot read the \(side.rawValue) side: \(Executor.describe(error, withHint: false))",
            recovery: (error as? any ExplainedError)?.recovery, cause: error)
    }
}

extension SyncFailure: FailureCode {
    /// `.refusedForSafety` for a mass deletion, `.authentication` for refused credentials,
    /// `.usage` for a calendar the pair lacks or what its kind cannot do; else `.failed`.
    public var kind: FailureKind {
        switch self {
        case .massDeletion: .refusedForSafety
        case .authenticationFailed: .authentication
        case .unknownCollection, .unsupported: .usage
        case .scanFailed: .failed
        case .signIn(let kind): kind
        }
    }
}
