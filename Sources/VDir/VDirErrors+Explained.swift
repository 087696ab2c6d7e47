import Failures
import Foundation

extension VDirError: ExplainedError {
    public var errorCode: String { "\(code)" }
    /// The system call's error, for `io`.
    public var cause: (any Error)? { errno.flatMap(SystemError.init) }
}

extension AtomicFileError: ExplainedError {
    public var errorCode: String { "io" }
    public var message: String { description }
    public var recovery: String? { SystemError(code)?.recovery(at: path) }
    public var cause: (any Error)? { SystemError(code) }
}

/// A system call's error number as an error, named as `errno(3)` names it.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var number: Int32

    public init?(_ number: Int32) {
        guard number != 0 else { return nil }
        self.number = number
    }

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
    public var systemErrorNumber: Int32? { errno }
    public var failedPath: String? { path }
}

extension AtomicFileError: FileSystemFailure {
    public var systemErrorNumber: Int32? { code }
    public var failedPath: String? { path }
}
