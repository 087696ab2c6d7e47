import ArgumentParser
import Foundation
import ICalendar
import VDir

/// `calgw fmt [--check] FILE...`: rewrite .ics files in canonical form.
struct FmtCommand: ParsableCommand {
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

    @Argument(help: "The .ics files.", completion: .file(extensions: ["ics"]))
    var files: [String]

    struct FileResult: Encodable {
        var file: String
        /// "unchanged", "reformatted", "would-reformat" or "error".
        var status: String
        var error: String?
    }

    func run() throws {
        var results: [FileResult] = []
        for path in files {
            let result = Self.format(path: path, check: check)
            results.append(result)
            guard !output.json else { continue }
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
        let url = URL(fileURLWithPath: path)
        do {
            // Read and written in chunks: only the tree is ever in memory whole.
            var components = try ICalendarParser().parse(contentsOf: url).components
            guard !components.isEmpty else {
                return FileResult(file: path, status: "error", error: "no calendar data; left unchanged")
            }
            for i in components.indices { Canonicalizer().canonicalize(&components[i]) }
            let comparison = try StreamingFileComparison(url)
            if check {
                try ICalendarSerializer().serialize(components) { try comparison.feed($0) }
                return FileResult(file: path, status: try comparison.finish() ? "unchanged" : "would-reformat")
            }
            let writer = try AtomicFileWriter(replacing: url)
            try ICalendarSerializer().serialize(components) { chunk in
                try comparison.feed(chunk)
                try writer.write(chunk)
            }
            if try comparison.finish() {
                writer.discard()
                return FileResult(file: path, status: "unchanged")
            }
            try writer.commit()
            return FileResult(file: path, status: "reformatted")
        } catch let error as ICalendarSyntaxError {
            return FileResult(file: path, status: "error", error: "line \(error.line): \(error.reason); left unchanged")
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return FileResult(file: path, status: "error", error: "no such file")
        } catch {
            return FileResult(file: path, status: "error", error: "\(error)")
        }
    }
}
