import Foundation

extension Executor {
    /// Holds back the upload of a task or journal entry the server refused because the
    /// calendar takes events only (``ComponentNotTaken``: Google's CalDAV takes no VTODO): sent
    /// again, it would be refused on every run. The item stays in the vdir and is not sent
    /// again until it changes; the run says so once, as a note, and later runs say nothing.
    /// - Returns: the note, or nil for any other failure.
    func holdBackRefusedComponent(_ action: PlannedAction, _ error: any Error) -> String? {
        guard let refusal = error as? ComponentNotTaken, let version = SyncEngine.heldVersion(of: action) else {
            return nil
        }
        let reason = "the calendar takes no \(refusal.component == "VTODO" ? "tasks" : "journal entries")"
        heldBack[action.key.value] = HeldBackWrite(hash: version, reason: reason, told: true)
        return "\(action.key): \(refusal.what) stays in the vdir: \(reason) (the server \(refusal.serverLine)); "
            + "it is not sent again until it changes"
    }
}
