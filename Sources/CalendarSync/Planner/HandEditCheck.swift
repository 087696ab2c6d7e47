import Foundation
import ICalendar

/// Finds the mistakes of a hand edit that make a vdir file unsafe to upload: structure that
/// does not parse (an unbalanced BEGIN/END, a line with no colon), an invalid RRULE, an end
/// before its start, an ORGANIZER or ATTENDEE that holds no calendar address (a space typed
/// for the colon before `mailto:`: a server takes the rest for another person). Such a file is reported at its line and left alone, with its server
/// copy, until it is fixed. Milder problems (LF line ends, long lines, a missing DTSTAMP)
/// do not block: the upload is made canonical instead.
enum HandEditCheck {
    /// What to do about a blocking problem.
    static let hint =
        "fix that line (calgw lint shows every problem in the file); until then the file and its server copy are left alone"

    /// The first blocking problem of `data`, as `path:line: problem`; nil when the file can be synced.
    static func blockingProblem(in data: Data, path: String, parses: Bool) -> String? {
        let problems = Linter().lint(data).filter { $0.severity == .error }
        let blocking = problems.first { !parses || blocks($0) }
        guard let found = blocking ?? (parses ? nil : problems.first) else {
            return parses ? nil : "\(path):1: not iCalendar data calgw can read"
        }
        return "\(path):\(max(found.line, 1)): \(found.message)"
    }

    /// The first blocking problem of `data`, given its parse (nil: it did not parse): the
    /// same answer as `blockingProblem(in:path:parses:)`, without parsing a file that parses
    /// again (a first sync checks every file of the folder).
    static func blockingProblem(in data: Data, parsed: ParsedCalendar?, path: String) -> String? {
        guard let parsed, parsed.calendar != nil else { return blockingProblem(in: data, path: path, parses: false) }
        guard let found = Linter().ruleProblems(in: parsed).first(where: { $0.severity == .error && blocks($0) }) else {
            return nil
        }
        return "\(path):\(max(found.line, 1)): \(found.message)"
    }

    /// True for the errors that keep a file that parses from being uploaded.
    private static func blocks(_ problem: LintProblem) -> Bool {
        switch problem.kind {
        case .endBeforeStart, .invalidValue(.recur), .invalidValue(.calAddress): true
        default: false
        }
    }
}
