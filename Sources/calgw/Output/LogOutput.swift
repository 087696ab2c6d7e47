import Foundation
import Logging

/// A command whose output options decide how much is logged. Its conformances are never
/// isolated to an actor (`SendableMetatype`), so `main` can ask for them and still hand the
/// command to its nonisolated `run()`.
protocol OutputCommand: SendableMetatype {
    var output: OutputOptions { get }
}

extension AlarmsCommand: OutputCommand {}
extension BusyCommand: OutputCommand {}
extension FreeCommand: OutputCommand {}
extension DiscoverCommand: OutputCommand {}
extension EventAddCommand: OutputCommand {}
extension EventDeleteCommand: OutputCommand {}
extension EventEditCommand: OutputCommand {}
extension EventOpenCommand: OutputCommand {}
extension EventReplyCommand: OutputCommand {}
extension ExpandCommand: OutputCommand {}
extension FmtCommand: OutputCommand {}
extension InitCommand: OutputCommand {}
extension LintCommand: OutputCommand {}
extension ListCommand: OutputCommand {}
extension LoginCommand: OutputCommand {}
extension LogoutCommand: OutputCommand {}
extension InvitationsCommand: OutputCommand {}
extension ItipCommand: OutputCommand {}
extension PullCommand: OutputCommand {}
extension PushCommand: OutputCommand {}
extension StatusCommand: OutputCommand {}
extension SyncCommand: OutputCommand {}
extension WatchCommand: OutputCommand {}

/// Where the libraries' log lines go: stderr, one line each, at the level `-q` / `-v` ask
/// for. The levels step up with each `-v`: notes about what is being done (`-v`), every
/// HTTP request with its status, size and time (`-vv`), and the header lines sent and
/// received with credentials blanked (`-vvv`).
enum LogOutput {
    /// The level for `output`: errors only with `-q`; warnings and notices by default.
    static func level(for output: OutputOptions) -> Logger.Level {
        if output.quiet { return .error }
        switch output.verbosity {
        case 0: return .notice
        case 1: return .info
        case 2: return .debug
        default: return .trace
        }
    }

    /// Sends every logger made from now on to stderr at `output`'s level. Call once, before
    /// the command makes its clients.
    static func bootstrap(_ output: OutputOptions) {
        let level = level(for: output)
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, logLevel: level) }
    }
}

/// Writes `level: message key=value …` lines to stderr; one write per line, so lines from
/// several threads never interleave.
struct StderrLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, logLevel: Logger.Level) {
        self.label = label
        self.logLevel = logLevel
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let fields = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        Terminal.err("\(event.level): \(event.message)\(fields)")
    }
}
