import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// `calgw lint FILE...`: report what is invalid in .ics files.
struct LintCommand: ParsableCommand, ManyPathsCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Report what is invalid in .ics files, one file:line: problem per line.",
        discussion: """
            Errors are what cannot be used as written (broken structure, an invalid RRULE, DTEND \
            before DTSTART); warnings are what calgw tolerates (LF line ends, a missing DTSTAMP). \
            Exits 1 when any file has an error.

            Examples:
              calgw lint ~/calendars/personal/*.ics
              calgw lint --json event.ics | jq '.[] | select(.severity == "error")'
            """
    )

    @OptionGroup var output: OutputOptions

    @Flag(help: "Report only errors, not warnings.")
    var errorsOnly = false

    @Argument(
        help: "The .ics files, or folders of them (every .ics under each).", completion: .file(extensions: ["ics"]))
    var files: [String]

    struct Problem: Encodable {
        var file: String
        var line: Int
        var severity: String
        var message: String
        /// The file could not be read (`message` says why): `path: why` on stderr, not a
        /// `path:line:` line.
        var unreadable = false

        enum CodingKeys: String, CodingKey { case file, line, severity, message }
    }

    /// The checks of the ICalendar module and those that expand a calendar's series.
    static let linter = Linter(calendarChecks: [SeriesLint.problems(in:)])

    func run() throws {
        var all: [Problem] = []
        ICSPaths.forEachOnEveryCore(
            ICSPaths.expanding(ICSPaths.splitRuns(files)),
            work: { path in Result { Self.linter.lint(try Data(contentsOf: URL(fileURLWithPath: path))) } }
        ) { path, result in
            switch result {
            case .failure(let error):
                let words = ReadFailure.words(error, path: path)
                all.append(Problem(file: path, line: 0, severity: "error", message: words, unreadable: true))
            case .success(let problems):
                for p in problems where !(errorsOnly && p.severity == .warning) {
                    all.append(Problem(file: path, line: p.line, severity: p.severity.rawValue, message: p.message))
                }
            }
        }
        if output.json {
            try Terminal.printJSON(all)
        } else {
            for p in all where !(output.quiet && p.severity == "warning") {
                if p.unreadable {
                    Terminal.reportError("\(p.file): \(p.message)")
                } else {
                    Terminal.out("\(p.file):\(p.line): \(p.severity): \(p.message)")
                }
            }
        }
        if all.contains(where: { $0.severity == "error" }) { throw ExitWithStatus(status: .failure) }
    }
}
