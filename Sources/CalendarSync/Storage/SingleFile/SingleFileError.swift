import Foundation

/// Why a single-file calendar could not be read or written: a code to branch on, a message
/// naming the file (and the line, for a file that does not parse), and what to do.
public struct SingleFileError: Error, LocalizedError, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
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

    public var code: Code
    public var message: String
    public var recovery: String?

    public init(_ code: Code, _ message: String, recovery: String? = nil) {
        self.code = code
        self.message = message
        self.recovery = recovery
    }

    public var description: String { message }
    public var errorDescription: String? { message }
    public var recoverySuggestion: String? { recovery }
}
