/// Something tolerated while parsing: the file was read, but not as RFC 5545 wants it.
public struct ParseWarning: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line it was found on (the first such line, for warnings about the whole file).
    public var line: Int
    /// What was tolerated, for a person.
    public var message: String

    /// A warning at `line`.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line: message`.
    public var description: String { "\(line): \(message)" }
}

/// Broken structure that cannot be read without guessing: the file is refused, unchanged.
public struct ICalendarSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// What is wrong, for a person.
    public var reason: String

    /// A syntax error at `line`.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line: reason`.
    public var description: String { "\(line): \(reason)" }
}

/// The result of parsing: the top-level components (usually one VCALENDAR) and warnings.
public struct ParsedCalendar: Sendable {
    /// The top-level components, in file order.
    public var components: [Component]
    /// What was tolerated, in the order found.
    public var warnings: [ParseWarning]
    /// Broken structure read past, in the order found: the misspelled ENDs that a parser
    /// reading past them (``ICalendarParser/readsPastMisspelledEnds``) took for the END of the
    /// innermost component, each as the error a strict parse gives. A reader showing the file
    /// says so; empty for a sound file.
    public var readPast: [ICalendarSyntaxError]

    /// A parse result of `components`, with `warnings` and `readPast` if any.
    public init(components: [Component], warnings: [ParseWarning] = [], readPast: [ICalendarSyntaxError] = []) {
        self.components = components
        self.warnings = warnings
        self.readPast = readPast
    }

    /// The first VCALENDAR, or the first top-level component.
    public var calendar: Component? {
        components.first { $0.name == "VCALENDAR" } ?? components.first
    }
}
