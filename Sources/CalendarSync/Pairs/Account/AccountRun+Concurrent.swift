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
        /// Not on the server yet: a dry run would make it (see ``UnmadeCalendar``).
        var unmade = false
    }

    enum CalendarOutcome: Sendable {
        case synced(SyncReport)
        /// Refused for safety (a mass deletion): the message.
        case refused(String)
        /// Stopped at a safe point when asked (``RunStopped``): the reason.
        case stopped(String)
    }

    /// Syncs the calendars, `concurrentCalendars` at a time; the outcome of each, by name.
    /// `progress` is told the sum over all calendars. The first other failure ends the run.
    ///
    /// A stop asked for (`stop`) is not such a failure: it would cancel the calendars
    /// still syncing, cutting their requests short. Each of them stops at its own safe point
    /// instead, no calendar starts after, and ``RunStopped`` is thrown once all have ended.
    static func syncConcurrently(
        _ jobs: [CalendarJob], client: CalDAVClient, policy: SyncPolicy, dryRun: Bool,
        faultHook: FaultHook?, progress: SyncProgressHandler?,
        stop: StopGate? = nil
    ) async throws -> [String: CalendarOutcome] {
        let total: AccountProgress? = progress.map { AccountProgress(report: $0) }
        return try await withThrowingTaskGroup(
            of: (String, CalendarOutcome).self,
            returning: [String: CalendarOutcome].self
        ) { group in
            var outcomes: [String: CalendarOutcome] = [:]
            var next = 0
            var stopped: String?
            while next < jobs.count || outcomes.count < next {
                if stopped == nil, let reason = stop?.requested { stopped = reason }
                while stopped == nil && next < jobs.count && next - outcomes.count < concurrentCalendars {
                    let job = jobs[next]
                    var handler: SyncProgressHandler?
                    if let total { handler = { p in total.update(job.name, p) } }
                    let report = handler
                    group.addTask {
                        let outcome = try await Self.syncOne(
                            job, client: client, policy: policy, dryRun: dryRun, faultHook: faultHook,
                            progress: report, stop: stop)
                        return (job.name, outcome)
                    }
                    next += 1
                }
                guard let (name, outcome) = try await group.next() else { break }
                outcomes[name] = outcome
                if case .stopped(let reason) = outcome { stopped = stopped ?? reason }
            }
            if let stopped { throw RunStopped(reason: stopped) }
            return outcomes
        }
    }

    /// Syncs one calendar of the account.
    static func syncOne(
        _ job: CalendarJob, client: CalDAVClient, policy: SyncPolicy, dryRun: Bool,
        faultHook: FaultHook?, progress: SyncProgressHandler?, stop: StopGate? = nil
    ) async throws -> CalendarOutcome {
        let remote: any CalendarStorage
        if job.unmade {
            remote = UnmadeCalendar(href: job.remote.path)
        } else {
            let calendar = CalDAVStorage(client: client, collection: job.remote)
            if let info = job.info { calendar.prime(with: info) }
            remote = calendar
        }
        do {
            return .synced(
                try await SyncSession.run(
                    journalAt: job.journal, local: VDirStorage(url: job.local), remote: remote,
                    policy: policy, dryRun: dryRun, prompt: nil,
                    faultHook: faultHook, progress: progress, stop: stop))
        } catch let error as SyncError where error.code == .massDeletion {
            return .refused(error.message)
        } catch let stop as RunStopped {
            return .stopped(stop.reason)
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
