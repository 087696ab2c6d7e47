import Failures
import Foundation

/// Why a single-file calendar could not be read or written: a code to branch on, a message
/// naming the file (and the line, for a file that does not parse), and what to do.
public typealias SingleFileError = CodedError<SingleFileFailure>

/// The ways a single file cannot be read or written.
public enum SingleFileFailure: Sendable, Equatable {
    /// The file is not a calendar calgw can split: the message is `path:line: problem`.
    case invalid
    /// Another program changed the file while a run had writes for it that no longer
    /// apply; nothing was written, and the next run merges.
    case changedMeanwhile
    /// The path names something other than a regular file (a folder, a device).
    case notAFile
    /// A system call failed.
    case io
}

extension SingleFileFailure: FailureCode {
    /// A pair whose file is a folder is set up wrong: a usage error.
    public var kind: FailureKind { self == .notAFile ? .usage : .failed }
}
