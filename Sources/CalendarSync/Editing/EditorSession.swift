import Foundation
import KernelEvents

/// A temporary file in the person's editor, reopened until the save is usable: on a terminal
/// with the problems said first, and given up when a save after them changes nothing; without
/// a terminal (nobody to fix anything) the first unusable save ends it with the problems.
public struct EditorSession {
    /// The copy's file name (the event's, so that the editor knows it for iCalendar).
    public var name: String
    /// Where the problems of a save are said before the editor opens again (stderr).
    public var say: (String) -> Void

    /// A session on a copy named `name`, saying the problems of a save with `say`.
    public init(name: String, say: @escaping (String) -> Void) {
        self.name = name
        self.say = say
    }

    /// The editor command: $VISUAL, else $EDITOR, else vi.
    public static var editor: String {
        for key in ["VISUAL", "EDITOR"] {
            if let value = ProcessEnvironment.value(key), !value.isEmpty { return value }
        }
        return "vi"
    }

    /// Whether a person can answer: standard input and error are both a terminal.
    public static var onATerminal: Bool { isatty(0) == 1 && isatty(2) == 1 }

    /// Opens the editor until the save is usable, given up, or not fixable without a terminal.
    /// - Throws: ``EventCommandError`` when nothing was written (problems, an editor that failed).
    public func run(review: EditorReview, interactive: Bool = Self.onATerminal) throws -> EditorReview.Outcome {
        let copies = EditorCopies()
        copies.sweepLeftovers()
        let folder = try copies.makeFolder()
        let copy = folder.appendingPathComponent(name)
        SignalCleanup.remove(copy.path, then: folder.path)
        defer {
            try? FileManager.default.removeItem(at: folder)
            SignalCleanup.release()
        }
        var text = review.initialText
        var shown: String?
        while true {
            try Data(text.utf8).write(to: copy)
            chmod(copy.path, 0o600)
            try launchEditor(on: copy)
            let saved = String(decoding: try Data(contentsOf: copy), as: UTF8.self)
            let outcome = review.review(saved)
            guard case .reopen(let annotated, let problems) = outcome else { return outcome }
            let listed = problems.map { $0.line > 0 ? "  line \($0.line): \($0.message)" : "  \($0.message)" }
            let count = "\(problems.count) problem\(problems.count == 1 ? "" : "s")"
            guard interactive else {
                throw EventCommandError(
                    "the edited event has \(count); nothing was written:\n" + listed.joined(separator: "\n"),
                    recovery:
                        "run it on a terminal to fix them in the editor, or change the event with `calgw event edit`")
            }
            let body = EditorReview.strippingComments(saved)
            if body == shown {
                throw EventCommandError(
                    "the file was saved unchanged after its problems were shown; nothing was written:\n"
                        + listed.joined(separator: "\n"))
            }
            say(
                "the file has \(count):\n" + listed.joined(separator: "\n")
                    + "\nreopening the editor (save it unchanged or empty to give up)")
            shown = body
            text = annotated
        }
    }

    /// Runs the editor on `file` in the foreground, with the terminal.
    func launchEditor(on file: URL) throws {
        // The editor may carry arguments ("code --wait"): the shell splits it, the path stays one word.
        let status = try ForegroundProcess.run(["/bin/sh", "-c", "\(Self.editor) \"$1\"", "calgw-editor", file.path])
        guard status == 0 else {
            throw EventCommandError(
                "the editor (\(Self.editor)) exited with status \(status); nothing was written",
                recovery: "set $VISUAL or $EDITOR to an editor that exits 0 after saving")
        }
    }
}
