import Failures
import Foundation

extension VDirError: ExplainedError {
    /// The code's name, e.g. `changedMeanwhile`.
    public var errorCode: String { "\(code)" }
    /// The system call's error, for `io`.
    public var cause: (any Error)? { errno.flatMap(SystemError.init) }
}

extension AtomicFileError: ExplainedError {
    /// `io`.
    public var errorCode: String { "io" }
    /// `path: could not step: reason`.
    public var message: String { description }
    /// What to do for the error numbers a person can act on (a full disk, a read-only folder, a
    /// permission); nil for others.
    public var recovery: String? { SystemError(code)?.recovery(at: path) }
    /// The system call's error.
    public var cause: (any Error)? { SystemError(code) }
}
