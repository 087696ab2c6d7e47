import Failures

/// One of a report's errors: its line as people and the JSON read it, the cause it may share
/// with other items' errors (a full disk), and how it ends the run.
///
/// In JSON an error is its line alone, as CLI.md shows it; the cause and the kind are for the
/// command that prints the report and picks its exit code.
public struct ReportedError: Sendable, Equatable, Codable, CustomStringConvertible {
    /// `uid: what failed`, with `(hint: …)` at its end when the hint concerns later runs.
    public var line: String
    /// The cause shared by every write to the same place, by which errors are told together
    /// (see ``ErrorGroup``).
    public var cause: ErrorCause?
    /// How this error ends the run: a refusal for safety (an account's calendar left alone
    /// for a mass deletion) or a failure.
    public var kind: FailureKind

    /// An error whose line is `line`; a plain failure unless `kind` says otherwise.
    public init(_ line: String, cause: ErrorCause? = nil, kind: FailureKind = .failed) {
        self.line = line
        self.cause = cause
        self.kind = kind
    }

    /// The error's line.
    public var description: String { line }

    /// The same error said of one of an account's calendars: its line and cause name the folder.
    func marked(collection: String) -> ReportedError {
        var marked = self
        marked.line = "\(collection): \(line)"
        marked.cause?.item = "\(collection)/\(cause?.item ?? "")"
        return marked
    }

    /// Reads an error from its line alone, as the JSON holds it: no cause, a plain failure.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Writes the error's line alone, as CLI.md's JSON shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(line)
    }
}

extension [ReportedError] {
    /// How a run with these errors ends: nil without any, a refusal for safety when every one
    /// is such a refusal, else a failure.
    public var failureKind: FailureKind? {
        guard !isEmpty else { return nil }
        return allSatisfy { $0.kind == .refusedForSafety } ? .refusedForSafety : .failed
    }

    /// The lines alone.
    public var lines: [String] { map(\.line) }
}
