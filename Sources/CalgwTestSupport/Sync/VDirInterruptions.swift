import CalendarSync
import Foundation

/// A crash campaign over a pair of vdirs: the same scenario, built afresh in a folder each time,
/// is synced and stopped after its k-th side effect, then synced again, so that a test can check
/// for every k that the second run converges.
public struct VDirInterruptions {
    /// Builds the scenario's two sides in `folder`.
    public let scenario: (TemporaryFolder) throws -> (VDirStorage, VDirStorage)

    /// A campaign over `scenario`, which sets up the two vdirs of a pair in a folder.
    public init(scenario: @escaping (TemporaryFolder) throws -> (VDirStorage, VDirStorage)) {
        self.scenario = scenario
    }

    /// An interrupted run that was not interrupted: its fault hook never stopped it.
    public struct NotInterrupted: Error, CustomStringConvertible {
        /// The side effect the run should have stopped after.
        public var k: Int
        /// Says which side effect was missed.
        public var description: String { "the run was not stopped at side effect \(k)" }
    }

    /// How many side effects an uninterrupted sync of the scenario has.
    public func effects() async throws -> Int {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (local, remote) = try scenario(folder)
        let count = Locked(0)
        _ = try await SyncEngine(
            local: local, remote: remote, journal: try Journal.open(at: folder.file("j.sqlite")),
            faultHook: { n in count.value = n }
        ).run()
        return count.value
    }

    /// The scenario synced in `folder` until its `k`-th side effect, then synced again: the
    /// sides, the journal and the second run's report.
    /// - Throws: ``NotInterrupted`` when the first run ended before its `k`-th side effect.
    public func interrupted(at k: Int, in folder: TemporaryFolder) async throws
        -> (local: VDirStorage, remote: VDirStorage, journal: Journal, rerun: SyncReport)
    {
        let (local, remote) = try scenario(folder)
        let journalURL = folder.file("j.sqlite")
        do {
            _ = try await SyncEngine(
                local: local, remote: remote, journal: try Journal.open(at: journalURL),
                faultHook: { n in if n >= k { throw RunInterrupted() } }
            ).run()
            throw NotInterrupted(k: k)
        } catch is RunInterrupted {}
        let journal = try Journal.open(at: journalURL)
        let report = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        return (local, remote, journal, report)
    }
}
