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

/// A system call's error number as an error, named as `errno(3)` names it.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error number, as `errno` holds it.
    public var number: Int32

    /// The error of `number`; nil for 0, which is no error.
    public init?(_ number: Int32) {
        guard number != 0 else { return nil }
        self.number = number
    }

    /// The system's text for the number, and the number: `No space left on device (errno 28)`.
    public var description: String { "\(String(cString: strerror(number))) (errno \(number))" }

    /// What to do about a failure of this kind on `path`, for the numbers a person can act on.
    public func recovery(at path: String) -> String? {
        switch number {
        case ENOSPC: "free space on the file system holding \(path), then run again"
        case EDQUOT: "your disk quota is used up: free space or raise it, then run again"
        case EROFS: "the file system holding \(path) is read-only: remount it read-write or use another folder"
        case EACCES, EPERM: "calgw may not write there: check the owner and permissions of \(path)"
        default: nil
        }
    }
}

/// A failure of a system call on a file, which callers can tell apart by its number without
/// reading the message (a full disk, a read-only folder).
public protocol FileSystemFailure: Error {
    /// The system call's error number, when a system call failed.
    var systemErrorNumber: Int32? { get }
    /// The file or folder the failed call was about.
    var failedPath: String? { get }
}

extension VDirError: FileSystemFailure {
    /// The system call's error number, for `io`.
    public var systemErrorNumber: Int32? { errno }
    /// The file the failed call was about, for `io`.
    public var failedPath: String? { path }
}

extension AtomicFileError: FileSystemFailure {
    /// The system call's error number.
    public var systemErrorNumber: Int32? { code }
    /// The file (or folder) the failed call was about.
    public var failedPath: String? { path }
}
