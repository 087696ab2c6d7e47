import CalDAV
import Foundation

/// An account's calendars sync side by side, a few at a time: each has its own folder, journal
/// and lock, and the server answers one calendar's requests while calgw writes another's files.
extension AccountRun {
    /// Calendars syncing at once. Servers serialise writes within a calendar, not across them;
    /// more than this gains nothing on two cores and loads a small server.
    static let concurrentCalendars = 4

    /// One calendar to sync.
    struct CalendarJob: Sendable {
        var name: String
        var journal: URL
        var local: URL
        var remote: URL
        /// What the account listing said of it (its tokens: no request when unchanged).
        var info: CalendarCollection?
    }

    enum CalendarOutcome: Sendable {
        case synced(SyncReport)
        /// Refused for safety (a mass deletion): the message.
        case refused(String)
    }

    /// Syncs the calendars, `concurrentCalendars` at a time; the outcome of each, by name.
    /// `progress` is told the sum over all calendars. The first other failure ends the run.
    static func syncConcurrently(_ jobs: [CalendarJob], client: CalDAVClient, policy: SyncPolicy, dryRun: Bool,
                                 faultHook: FaultHook?, progress: SyncProgressHandler?) async throws -> [String: CalendarOutcome] {
        let total: AccountProgress? = progress.map { AccountProgress(report: $0) }
        return try await withThrowingTaskGroup(of: (String, CalendarOutcome).self,
                                               returning: [String: CalendarOutcome].self) { group in
            var outcomes: [String: CalendarOutcome] = [:]
            var next = 0
            while next < jobs.count || outcomes.count < next {
                while next < jobs.count && next - outcomes.count < concurrentCalendars {
                    let job = jobs[next]
                    var handler: SyncProgressHandler?
                    if let total { handler = { p in total.update(job.name, p) } }
                    let report = handler
                    group.addTask {
                        let outcome = try await Self.syncOne(job, client: client, policy: policy, dryRun: dryRun, faultHook: faultHook,
                                                             progress: report)
                        return (job.name, outcome)
                    }
                    next += 1
                }
                if let (name, outcome) = try await group.next() { outcomes[name] = outcome }
            }
            return outcomes
        }
    }

    /// Syncs one calendar of the account.
    static func syncOne(_ job: CalendarJob, client: CalDAVClient, policy: SyncPolicy, dryRun: Bool,
                        faultHook: FaultHook?, progress: SyncProgressHandler?) async throws -> CalendarOutcome {
        let remote = CalDAVStorage(client: client, collection: job.remote)
        if let info = job.info { remote.prime(with: info) }
        do {
            return .synced(try await SyncSession.run(journalAt: job.journal, local: VDirStorage(url: job.local), remote: remote,
                                                     policy: policy, dryRun: dryRun, prompt: nil,
                                                     faultHook: faultHook, progress: progress))
        } catch let error as SyncError where error.code == .massDeletion {
            return .refused(error.message)
        }
    }
}

/// The sum of several calendars' progress, for one bar.
final class AccountProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String: SyncProgress] = [:]
    private let report: SyncProgressHandler

    init(report: @escaping SyncProgressHandler) { self.report = report }

    func update(_ name: String, _ progress: SyncProgress) {
        // Drawn under the lock, so that the bar sees the sums in order.
        lock.withLock {
            parts[name] = progress
            var sum = SyncProgress(total: 0)
            for p in parts.values {
                sum.total += p.total
                sum.done += p.done
                sum.failed += p.failed
            }
            report(sum)
        }
    }
}
