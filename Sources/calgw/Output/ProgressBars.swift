import CalendarSync
import Foundation
import Synchronization

/// The progress bars of one pair's run, made when the library starts a transfer (see
/// ``PairRun/Options/progress``) and cleared together at the end.
final class ProgressBars: Sendable {
    let label: String
    /// Whether bars are drawn at all (stderr a terminal, neither `-q` nor `--json`).
    let drawn: Bool
    private let made = Mutex<[ProgressBar]>([])

    /// - Parameter label: what every bar starts with (`sync`, or `sync work` with `--all`).
    init(label: String, output: OutputOptions) {
        self.label = label
        drawn = Terminal.stderrIsTTY && !output.quiet && !output.json
    }

    /// The handler of a transfer of `what` (a calendar, "3 calendars"; nil for the pair's
    /// only calendar), drawing a bar on stderr; nil when no bar is drawn.
    var make: @Sendable (String?) -> SyncProgressHandler? {
        { [self] what in
            guard drawn else { return nil }
            let bar = ProgressBar(label: what.map { "\(label) \($0)" } ?? label, color: Terminal.colorOnStderr) {
                text in
                FileHandle.standardError.write(Data(text.utf8))
            }
            made.withLock { $0.append(bar) }
            return bar.handler
        }
    }

    /// Clears every bar drawn.
    func finish() {
        for bar in made.withLock({ $0 }) { bar.finish() }
    }
}
