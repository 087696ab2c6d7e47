import Foundation

extension Executor {
    /// Holds back a write the storage refused for as long as the item stays as it is
    /// (``KeptLocalRefusal``: a task on Google's calendar of events, a copy of a meeting Graph
    /// would mail): sent again, it would be refused on every run. The item stays as it is, is
    /// not sent again until it changes, and the run says so once, as a note; later runs say
    /// nothing.
    /// - Returns: the note, or nil for any other failure.
    func holdBackKeptLocal(_ action: PlannedAction, _ error: any Error) -> String? {
        guard let refusal = error as? any KeptLocalRefusal, let version = SyncEngine.heldVersion(of: action) else {
            return nil
        }
        heldBack[action.key.value] = HeldBackWrite(hash: version, reason: refusal.keptReason, told: true)
        return "\(action.key): \(refusal.keptNote)"
    }
}
