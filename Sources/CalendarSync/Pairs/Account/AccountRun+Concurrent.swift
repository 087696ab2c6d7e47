import Failures
import Foundation

/// An account's calendars sync side by side, as many at a time as the provider takes
/// (``CalendarDirectory/concurrentCalendars``): each has its own folder, journal and lock, and
/// the server answers one calendar's requests while calgw writes another's files.
extension AccountRun {
    /// One calendar to sync.
    struct CalendarJob: Sendable {
        var name: String
        var journal: URL
        var local: URL
        var href: CollectionHref
        /// What the directory's listing said of it (CalDAV's tokens: no request when unchanged).
        var listed: ListedCalendar?
        /// Not made yet: a dry run would make it (see ``UnmadeCalendar``).
        var unmade = false
    }

    enum CalendarOutcome: Sendable {
        case synced(SyncReport)
        /// Refused for safety (a mass deletion): the message.
        case refused(String)
        /// Failed (a calendar that refuses to be listed, a server fault): the error's line.
        case failed(String)
        /// Stopped at a safe point when asked (``RunStopped``): the reason.
        case stopped(String)

        /// The calendar's part of the run's report: what it did, or its one error.
        var report: SyncReport? {
            var part = SyncReport()
            switch self {
            case .synced(let report): return report
            case .refused(let message): part.errors = [ReportedError(message, kind: .refusedForSafety)]
            case .failed(let line): part.errors = [ReportedError(line)]
            case .stopped: return nil
            }
            return part
        }
    }

    /// Syncs the calendars, the directory's number at a time; the outcome of each, by name.
    /// `progress` is told the sum over all calendars. A calendar that fails is its outcome;
    /// what ends the run is a failure of another kind (credentials refused).
    ///
    /// A stop asked for is not such a failure: it would cancel the calendars still syncing,
    /// cutting their requests short. Each of them stops at its own safe point instead, no
    /// calendar starts after, and ``RunStopped`` is thrown once all have ended.
    func syncConcurrently(
        _ jobs: [CalendarJob], directory: any CalendarDirectory, progress: SyncProgressHandler?
    ) async throws -> [String: CalendarOutcome] {
        let total: AccountProgress? = progress.map { AccountProgress(report: $0) }
        let limit = max(1, directory.concurrentCalendars)
        let stop = run.options.stop
        return try await withThrowingTaskGroup(
            of: (String, CalendarOutcome).self,
            returning: [String: CalendarOutcome].self
        ) { group in
            var outcomes: [String: CalendarOutcome] = [:]
            var next = 0
            var stopped: String?
            while next < jobs.count || outcomes.count < next {
                if stopped == nil, let reason = stop?.requested { stopped = reason }
                while stopped == nil && next < jobs.count && next - outcomes.count < limit {
                    let job = jobs[next]
                    var handler: SyncProgressHandler?
                    if let total { handler = { p in total.update(job.name, p) } }
                    let report = handler
                    group.addTask { (job.name, try await syncOne(job, directory: directory, progress: report)) }
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
    func syncOne(_ job: CalendarJob, directory: any CalendarDirectory, progress: SyncProgressHandler?)
        async throws -> CalendarOutcome
    {
        do {
            let remote: any CalendarStorage =
                job.unmade
                ? UnmadeCalendar(href: job.href.path) : try directory.storage(for: job.href, listed: job.listed)
            return .synced(
                try await SyncSession.run(
                    journalAt: job.journal, local: VDirStorage(url: job.local), remote: remote,
                    policy: policy, dryRun: dryRun, prompt: nil,
                    faultHook: run.options.faultHook, progress: progress, stop: run.options.stop))
        } catch let error as SyncError where error.code == .massDeletion {
            return .refused(error.message)
        } catch let stop as RunStopped {
            return .stopped(stop.reason)
        } catch let error as any ExplainedError where error.kind == .failed {
            return .failed(Self.line(error))
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
