import CalendarSync
import Foundation

/// Sends what an `event` command just wrote to the server, unless `--offline`: a push of the
/// pair, so the change travels with the same journal, conditional requests and safety rails
/// as `calgw push` (other changes pending in the vdir go with it).
struct EventPush {
    var target: EventTarget
    var options: EventOptions
    var output: OutputOptions

    /// - Returns: whether the change reached the server.
    /// - Throws: `CLIError` saying the change is safe in the vdir and how to send it later.
    func push(uids: [String]) async throws -> Bool {
        if options.offline { return false }
        let pair = target.pair
        let policy = SyncPolicy(direction: .push, conflict: ConflictStrategy(rawValue: pair.conflict.rawValue) ?? .merge)
        let report: SyncReport
        do {
            report = try await SyncSession.run(journalAt: pair.journal, local: StorageFactory.local(for: pair),
                                               remote: try StorageFactory.remote(for: pair), policy: policy, dryRun: false,
                                               prompt: nil, faultHook: nil)
        } catch {
            let (message, hint, status) = PairRunner.describe(error)
            throw CLIError("the change is in the vdir, but sending it to the server failed: \(message)",
                           hint: hint ?? "`calgw push` sends it when the server can be reached",
                           status: status == .usage ? .failure : status)
        }
        if !report.errors.isEmpty {
            throw CLIError("the change is in the vdir, but the server did not take all of it: \(report.errors.joined(separator: "; "))",
                           hint: "`calgw status` shows what is pending; `calgw push` retries")
        }
        return true
    }
}
