import CalendarSync
import Foundation

extension ProgressBar {
    /// A bar on stderr, or nil when there should be none (stderr not a terminal, `-q`, `--json`).
    static func onStderr(label: String, output: OutputOptions) -> ProgressBar? {
        guard Terminal.stderrIsTTY, !output.quiet, !output.json else { return nil }
        return ProgressBar(label: label, color: Terminal.colorOnStderr) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

}
