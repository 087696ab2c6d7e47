import CalDAV
import Foundation

/// Why a run stopped as a whole (per-item problems go to the report's `errors`).
public struct SyncError: Error, LocalizedError, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
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
    }

    /// The error a failed scan of `side` stops the run with.
    static func scanFailed(_ side: Side, _ error: Error) -> SyncError {
        if let dav = error as? CalDAVError, dav.code == .authenticationFailed {
            let said = dav.message.hasPrefix("the server refused the credentials")
            return SyncError(.authenticationFailed, said ? dav.message : "the server refused the credentials: \(dav.message)",
                             recovery: dav.recovery, cause: dav)
        }
        return SyncError(.scanFailed, "cannot read the \(side.rawValue) side: \(Executor.describe(error, withHint: false))",
                         recovery: (error as? LocalizedError)?.recoverySuggestion, cause: error)
    }

    public var code: Code
    public var message: String
    public var recovery: String?
    /// The error underneath (SQLite's, the file system's, a storage's), for logs and `-v`.
    public var cause: (any Error)?

    public init(_ code: Code, _ message: String, recovery: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.recovery = recovery
        self.cause = cause
    }

    public var description: String { message }
    public var errorDescription: String? { message }
    public var recoverySuggestion: String? { recovery }
}
