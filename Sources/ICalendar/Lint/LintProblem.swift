/// One thing wrong with a calendar file, at a line.
public struct LintProblem: Hashable, Sendable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// Tolerated: calgw reads and syncs the file, but RFC 5545 wants it otherwise.
        case warning
        /// The file, or this part of it, cannot be used as written.
        case error

        /// A warning is less severe than an error.
        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    /// 1-based line; 0 for the whole file.
    public var line: Int
    /// Whether the file can still be used.
    public var severity: Severity
    /// What is wrong, in words.
    public var message: String

    /// A problem at `line`.
    public init(line: Int, severity: Severity, message: String) {
        self.line = line
        self.severity = severity
        self.message = message
    }

    /// `line: severity: message`.
    public var description: String { "\(line): \(severity.rawValue): \(message)" }
}
