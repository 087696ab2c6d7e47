import Foundation

/// The journal could not be opened, locked or written.
public struct JournalError: Error, LocalizedError, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// Another run holds the pair's lock.
        case locked
        /// The journal was written by a newer calgw.
        case newerVersion
        /// SQLite or the file system failed.
        case storage
        /// The file is not a SQLite database, or SQLite finds it damaged (overwritten,
        /// truncated): a sync moves it aside and matches both sides again.
        case corrupt
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
