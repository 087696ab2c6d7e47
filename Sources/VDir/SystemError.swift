import Foundation

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
