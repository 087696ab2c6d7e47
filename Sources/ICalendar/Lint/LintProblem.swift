/// One thing wrong with a calendar file, at a line.
public struct LintProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// Tolerated: calgw reads and syncs the file, but RFC 5545 wants it otherwise.
        case warning
        /// The file, or this part of it, cannot be used as written.
        case error

        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    /// 1-based line; 0 for the whole file.
    public var line: Int
    public var severity: Severity
    public var message: String

    public init(line: Int, severity: Severity, message: String) {
        self.line = line
        self.severity = severity
        self.message = message
    }

    /// `line: severity: message`.
    public var description: String { "\(line): \(severity.rawValue): \(message)" }
}
