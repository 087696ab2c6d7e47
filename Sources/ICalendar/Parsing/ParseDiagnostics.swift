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

    /// A parse result of `components`, with `warnings` if any.
    public init(components: [Component], warnings: [ParseWarning] = []) {
        self.components = components
        self.warnings = warnings
    }

    /// The first VCALENDAR, or the first top-level component.
    public var calendar: Component? {
        components.first { $0.name == "VCALENDAR" } ?? components.first
    }
}
