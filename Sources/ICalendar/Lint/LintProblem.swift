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

    /// What kind of problem, for a caller that acts on some kinds (a hand edit that must not be
    /// synced) without reading the words.
    public enum Kind: Hashable, Sendable {
        /// An end (DTEND, DUE) before its DTSTART.
        case endBeforeStart
        /// A property whose value is not of its type (an RRULE or EXRULE that is no rule, an
        /// ATTENDEE that is no CAL-ADDRESS).
        case invalidValue(ValueType)
        /// A parameter whose name is none (RFC 5545 §3.1: letters, digits and `-`), as a
        /// mail's broken encoding leaves it; servers refuse the line.
        case parameterName
        /// A TZID that is neither a zone calgw knows nor one the file defines.
        case unknownZone
        /// Anything else.
        case other
    }

    /// 1-based line; 0 for the whole file.
    public var line: Int
    /// Whether the file can still be used.
    public var severity: Severity
    /// What is wrong, in words.
    public var message: String
    /// What kind of problem it is.
    public var kind: Kind

    /// A problem at `line`.
    public init(line: Int, severity: Severity, message: String, kind: Kind = .other) {
        self.line = line
        self.severity = severity
        self.message = message
        self.kind = kind
    }

    /// `line: severity: message`.
    public var description: String { "\(line): \(severity.rawValue): \(message)" }
}
