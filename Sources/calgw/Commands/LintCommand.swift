import ArgumentParser
import Foundation
import ICalendar
import Recurrence

/// `calgw lint FILE...`: report what is invalid in .ics files.
struct LintCommand: ParsableCommand {
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

    @Argument(help: "The .ics files.", completion: .file(extensions: ["ics"]))
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
        for path in files {
            let problems: [LintProblem]
            do {
                problems = Self.linter.lint(try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                all.append(
                    Problem(
                        file: path, line: 0, severity: "error", message: Self.readFailure(error, path: path),
                        unreadable: true))
                continue
            }
            for p in problems where !(errorsOnly && p.severity == .warning) {
                all.append(Problem(file: path, line: p.line, severity: p.severity.rawValue, message: p.message))
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

    /// Why a file could not be read, in a few words: `no such file`, `permission denied`, `is a directory`.
    static func readFailure(_ error: Error, path: String) -> String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "is a directory"
        }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        let posix = underlying?.domain == NSPOSIXErrorDomain ? underlying?.code : nil
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?, .fileNoSuchFile?: return "no such file"
        case .fileReadNoPermission?: return "permission denied"
        default: break
        }
        if let posix, let code = POSIXErrorCode(rawValue: Int32(posix)) {
            switch code {
            case .ENOENT: return "no such file"
            case .EACCES: return "permission denied"
            case .EISDIR: return "is a directory"
            default: return String(cString: strerror(code.rawValue)).lowercased()
            }
        }
        return "cannot read the file: \(error.localizedDescription)"
    }
}
