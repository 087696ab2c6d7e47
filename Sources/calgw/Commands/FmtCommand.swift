import ArgumentParser
import CalendarSync
import Foundation

/// `calgw fmt [--check] FILE...`: rewrite .ics files in canonical form.
struct FmtCommand: ParsableCommand, ManyPathsCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Rewrite .ics files in canonical form (folded lines, CRLF, escaped text).",
        discussion: """
            A file is rewritten atomically and only when its canonical form differs. A file that \
            does not parse is reported and left exactly as it is.

            Examples:
              calgw fmt ~/calendars/personal/*.ics
              calgw fmt --check event.ics     # exit 1 if it would change
            """
    )

    @Flag(help: "Change nothing; list the files that would change and exit 1 if there are any.")
    var check = false

    @OptionGroup var output: OutputOptions

    @Argument(
        help: "The .ics files, or folders of them (every .ics under each).", completion: .file(extensions: ["ics"]))
    var files: [String]

    struct FileResult: Encodable {
        var file: String
        /// "unchanged", "reformatted", "would-reformat" or "error".
        var status: String
        var error: String?
    }

    func run() throws {
        var results: [FileResult] = []
        let check = check
        ICSPaths.forEachOnEveryCore(
            ICSPaths.expanding(ICSPaths.splitRuns(files)), work: { Self.format(path: $0, check: check) }
        ) { path, result in
            results.append(result)
            guard !output.json else { return }
            switch result.status {
            case "error": Terminal.reportError("\(path): \(result.error ?? "")")
            case "reformatted": if !output.quiet { Terminal.err("reformatted \(path)") }
            case "would-reformat": Terminal.out(path)
            default: if output.verbose { Terminal.err("unchanged \(path)") }
            }
        }
        if output.json { try Terminal.printJSON(results) }
        let failed = results.contains { $0.status == "error" }
        let wouldChange = results.contains { $0.status == "would-reformat" }
        if failed || (check && wouldChange) { throw ExitWithStatus(status: .failure) }
    }

    /// Formats one file; never writes a file it could not parse.
    static func format(path: String, check: Bool) -> FileResult {
        switch CanonicalRewrite.apply(to: URL(fileURLWithPath: path), check: check) {
        case .unchanged: FileResult(file: path, status: "unchanged")
        case .reformatted: FileResult(file: path, status: "reformatted")
        case .wouldReformat: FileResult(file: path, status: "would-reformat")
        case .refused(let reason): FileResult(file: path, status: "error", error: reason)
        }
    }
}
