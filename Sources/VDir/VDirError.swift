import Foundation

/// Why a vdir operation failed: a code to branch on, a message naming the file, and what to do.
public struct VDirError: Error, LocalizedError, Sendable, CustomStringConvertible {
    /// What went wrong, for callers that branch.
    public enum Code: Sendable, Equatable {
        /// The file changed since its signature was taken.
        case changedMeanwhile
        /// A file of that name exists already.
        case alreadyExists
        /// A name that is not a plain item file name in this folder.
        case unsafeName
        /// The folder is missing or not a folder.
        case notAFolder
        /// A system call failed.
        case io
    }

    /// What went wrong, to branch on.
    public var code: Code
    /// What failed, naming the file.
    public var message: String
    /// What the person can do about it; nil where the message says all.
    public var recovery: String?
    /// For `io`: the system call's error number, so that callers can tell a full disk or a
    /// read-only folder from other failures without reading the message.
    public var errno: Int32?
    /// For `io`: the file the failed call was about.
    public var path: String?

    /// An error with `code` and `message`, and what is known of the recovery and the failed call.
    public init(_ code: Code, _ message: String, recovery: String? = nil, errno: Int32? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.recovery = recovery
        self.errno = errno
        self.path = path
    }

    /// The message.
    public var description: String { message }
    /// The message, which is what a `LocalizedError` shows.
    public var errorDescription: String? { message }
    /// The recovery suggestion, for a `LocalizedError`'s reader.
    public var recoverySuggestion: String? { recovery }
}
