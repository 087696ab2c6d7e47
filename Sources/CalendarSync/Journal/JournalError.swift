import Failures
import Foundation

/// The journal could not be opened, locked or written.
public typealias JournalError = CodedError<JournalFailure>

/// The ways the journal fails.
public enum JournalFailure: Sendable, Equatable {
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

extension JournalFailure: FailureCode {}
