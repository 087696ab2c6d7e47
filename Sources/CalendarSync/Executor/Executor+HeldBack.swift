import Foundation

extension Executor {
    /// Holds back a write to the server of a meeting that the server failed in its own code
    /// (``StorageFailure/failsInServerCode``): sent again, it would fail the same way on every
    /// run (DAViCal 1.1.12 answers 500 to an attendee's answer to some meetings). The journal
    /// keeps the vdir's version it failed on, and later runs leave that write pending, so the
    /// pair is not failing forever while the change stays in the vdir (``HeldBackWrite``).
    /// - Returns: what is held, or nil for any other failure (reported as it is).
    func holdBack(_ action: PlannedAction, _ error: any Error) -> HeldBackWrite? {
        guard let failure = error as? any StorageFailure, failure.failsInServerCode, !failure.mayHaveLanded,
            let version = SyncEngine.heldVersion(of: action), Self.isMeeting(action)
        else { return nil }
        let held = HeldBackWrite(hash: version, reason: failure.serverLine)
        heldBack[action.key.value] = held
        report.heldBack[action.key.value] = held.reason
        return held
    }

    /// Whether the item a write carries is a meeting (``MeetingContent/isMeeting(_:)``, of its
    /// bytes where the run kept them), for a deletion by the server's bytes where the run kept them.
    static func isMeeting(_ action: PlannedAction) -> Bool {
        switch action {
        case .create(_, let source), .update(_, _, let source):
            source.data.map(MeetingContent.isMeeting) ?? false
        case .delete(_, let target):
            target.data.map(MeetingContent.isMeeting) ?? false
        default: false
        }
    }
}
