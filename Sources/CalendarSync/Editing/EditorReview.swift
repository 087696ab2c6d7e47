import Foundation
import ICalendar

/// Decides what happens to an event a person edited in a text editor (`calgw event open`),
/// as `git commit` does with a message: comment lines are stripped, an unchanged or empty
/// save aborts, a save with errors goes back to the editor with the problems written above
/// `BEGIN:VCALENDAR`, and an accepted save gets SEQUENCE and LAST-MODIFIED bumped on the
/// components the person changed, unless they bumped SEQUENCE themselves. Pure: no files,
/// no processes.
public struct EditorReview: Sendable {
    /// What to do with a save.
    public enum Outcome: Sendable, Equatable {
        /// Nothing to write: the save equals the original (after stripping comments).
        case unchanged
        /// The person emptied the file: abort, as an empty commit message does.
        case empty
        /// Errors that would make the event unusable: reopen the editor with this text.
        case reopen(String, problems: [LintProblem])
        /// Write this resource.
        case accept(Component)
    }

    /// The file as it was before editing.
    public let original: Component
    /// LAST-MODIFIED and DTSTAMP of what is written (UTC).
    public let now: DateTimeValue

    /// A review of saves of `original`, stamped with `now`.
    public init(original: Component, now: DateTimeValue) {
        self.original = original
        self.now = now
    }

    /// The text the editor opens: the resource, canonical.
    public var initialText: String { ICalendarSerializer().string(original) }

    /// Judges a save.
    public func review(_ saved: String) -> Outcome {
        let text = Self.strippingComments(saved)
        if text.allSatisfy(\.isWhitespace) { return .empty }
        let problems = Linter().lint(Data(text.utf8)).filter { $0.severity == .error }
        guard problems.isEmpty, let calendar = try? ICalendarParser().parse(text).calendar else {
            return .reopen(Self.annotated(text, problems: problems), problems: problems)
        }
        let uids = Set(original.components.compactMap { $0["UID"]?.text })
        let savedUIDs = Set(calendar.components.compactMap { $0["UID"]?.text })
        guard savedUIDs == uids else {
            let problem = LintProblem(
                line: 0, severity: .error,
                message:
                    "the UID must stay \(uids.sorted().joined(separator: ", ")); to make a new event use `calgw event add`"
            )
            return .reopen(Self.annotated(text, problems: [problem]), problems: [problem])
        }
        if calendar == original { return .unchanged }
        return .accept(bumped(calendar))
    }

    /// Bumps SEQUENCE and sets LAST-MODIFIED and DTSTAMP on each changed event, unless the
    /// person changed its SEQUENCE already.
    func bumped(_ calendar: Component) -> Component {
        let before = Dictionary(original.components.map { (Self.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        var result = calendar
        for (i, component) in calendar.components.enumerated()
        where ["VEVENT", "VTODO", "VJOURNAL"].contains(component.name) {
            let old = before[Self.key(component)]
            guard old != component else { continue }
            var edited = component
            if old == nil || old?["SEQUENCE"]?.integer == edited["SEQUENCE"]?.integer {
                let sequence = (old?["SEQUENCE"]?.integer ?? 0) + (old == nil ? 0 : 1)
                edited.set(Property(name: "SEQUENCE", value: String(sequence)))
            }
            edited.set(.dateTime("LAST-MODIFIED", now))
            edited.set(.dateTime("DTSTAMP", now))
            result.components[i] = edited
        }
        return result
    }

    static func key(_ component: Component) -> String {
        "\(component.name)|\(component["UID"]?.text ?? "")|\(component["RECURRENCE-ID"]?.value ?? "")"
    }

    /// The text without the `#` lines calgw wrote above `BEGIN:VCALENDAR`.
    public static func strippingComments(_ text: String) -> String {
        var lines = text.physicalLines[...]  // by scalar: an editor that saves CRLF splits too
        while let first = lines.first, first.hasPrefix("#") || (first.allSatisfy(\.isWhitespace) && lines.count > 1) {
            lines.removeFirst()
        }
        return lines.joined(separator: "\n")
    }

    /// The text with its problems in `#` lines above it, for the editor to show.
    public static func annotated(_ text: String, problems: [LintProblem]) -> String {
        var header = [
            "# calgw could not use this file. Fix the problems below and save, or empty the file to abort.",
            "# Lines starting with # are removed.",
        ]
        header += problems.map { $0.line > 0 ? "#   line \($0.line) below: \($0.message)" : "#   \($0.message)" }
        return header.joined(separator: "\n") + "\n" + text
    }
}
