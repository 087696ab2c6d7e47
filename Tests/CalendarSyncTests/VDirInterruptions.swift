import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A crash campaign over a pair of vdirs: the same scenario, built afresh in a folder each time,
/// is synced and stopped after its k-th side effect, then synced again.
struct VDirInterruptions {
    /// Builds the scenario's two sides in `folder`.
    let scenario: (TemporaryFolder) throws -> (VDirStorage, VDirStorage)

    /// How many side effects an uninterrupted sync of the scenario has.
    func effects() async throws -> Int {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (local, remote) = try scenario(folder)
        let count = Counter()
        _ = try await SyncEngine(local: local, remote: remote, journal: try Journal.open(at: folder.file("j.sqlite")),
                                 faultHook: { n in count.value = n }).run()
        return count.value
    }

    /// The scenario synced in `folder` until its `k`-th side effect, then synced again: the
    /// sides, the journal and the second run's report.
    func interrupted(at k: Int, in folder: TemporaryFolder) async throws
        -> (local: VDirStorage, remote: VDirStorage, journal: Journal, rerun: SyncReport) {
        let (local, remote) = try scenario(folder)
        let journalURL = folder.file("j.sqlite")
        await #expect(throws: RunInterrupted.self) {
            try await SyncEngine(local: local, remote: remote, journal: try Journal.open(at: journalURL),
                                 faultHook: { n in if n >= k { throw RunInterrupted() } }).run()
        }
        let journal = try Journal.open(at: journalURL)
        let report = try await SyncEngine(local: local, remote: remote, journal: journal).run()
        return (local, remote, journal, report)
    }
}
