#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation
import Synchronization

/// A one-line progress bar on stderr for the transfer phase of `pull`, `push` and `sync`:
/// `sync personal [=========>          ] 120/200  45.2/s`.
///
/// The command line makes one only when stderr is a terminal and neither `--quiet` nor
/// `--json` was given, so scripts never see it. Redrawn at most ten times a second (and once more at the end), with
/// the bar in colour unless NO_COLOR is set; ``finish()`` clears the line so that what is
/// printed next starts on a clean one.
public final class ProgressBar: Sendable {
    /// What is printed before the bar (`sync`, or `sync personal` with several pairs).
    let label: String
    let color: Bool
    /// Seconds between redraws.
    let interval: Double
    private let write: @Sendable (String) -> Void
    private let state = Mutex(DrawState())

    private struct DrawState {
        var started: ContinuousClock.Instant?
        var lastDraw: ContinuousClock.Instant?
        var drawn = false
        var finished = false
    }

    public init(label: String, color: Bool, interval: Double = 0.1, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.color = color
        self.interval = interval
        self.write = write
    }

    /// The engine's callback: draws `progress` unless the last drawing is too recent.
    public var handler: SyncProgressHandler { { [self] progress in self.update(progress) } }

    public func update(_ progress: SyncProgress) {
        let now = ContinuousClock.now
        let text: String? = state.withLock { s in
            guard !s.finished, progress.total > 0 else { return nil }
            let started = s.started ?? now
            s.started = started
            if let last = s.lastDraw, !progress.isComplete, last.duration(to: now) < .seconds(interval) { return nil }
            s.lastDraw = now
            s.drawn = true
            let elapsed = started.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return "\r"
                + Self.line(
                    progress, label: label, rate: seconds > 0 ? Double(progress.done) / seconds : nil,
                    columns: Self.columns(), color: color) + "\u{1B}[K"
        }
        if let text { write(text) }
    }

    /// Clears the bar's line, if one was drawn; later updates draw nothing.
    public func finish() {
        let drawn = state.withLock { s in
            s.finished = true
            return s.drawn
        }
        if drawn { write("\r\u{1B}[K") }
    }

    /// The bar's text for `progress`, fitted to `columns`.
    static func line(_ progress: SyncProgress, label: String, rate: Double?, columns: Int, color: Bool) -> String {
        var counts = " \(progress.done)/\(progress.total)"
        if let rate { counts += "  " + String(format: "%.1f/s", rate) }
        if progress.failed > 0 { counts += "  \(progress.failed) failed" }
        let room = columns - label.count - counts.count - 4
        guard room >= 10 else { return label + counts }
        let width = min(40, room)
        let filled = progress.total == 0 ? width : min(width, width * progress.done / progress.total)
        var bar = String(repeating: "=", count: filled)
        if filled < width { bar += ">" + String(repeating: " ", count: width - filled - 1) }
        if color { bar = "\u{1B}[32m" + bar + "\u{1B}[0m" }
        return "\(label) [\(bar)]\(counts)"
    }

    /// The terminal's width in columns (80 when it does not say).
    static func columns() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
