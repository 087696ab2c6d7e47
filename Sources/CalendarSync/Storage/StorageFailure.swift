import Failures
import Foundation

/// What the engine asks of a storage's failure that is none of ``StorageError``'s refusals: a
/// broken connection, a server's own failure, a full account. A storage's transport errors
/// conform (CalDAV's in `CalDAVStorage+Failures.swift`), so that the engine decides what to do
/// from these answers and never from a transport's error type, and the error itself — with its
/// status, address and cause for `-v` — is what the person is shown.
public protocol StorageFailure: ExplainedError {
    /// The request went out and no answer came (a broken connection, a time-out, a gateway that
    /// gave up waiting): the write may have been made, so its intent is left for recovery.
    var mayHaveLanded: Bool { get }
    /// The server failed (a 5xx status, a broken connection), which too many writes at once
    /// can cause; false for a refusal of the write itself.
    var isServerFailure: Bool { get }
    /// Every later write to that place fails the same way (a full account), not only this
    /// item's: the item's line carries the hint.
    var concernsEveryWrite: Bool { get }
    /// The server failed in its own code on this request (500 Internal Server Error), not for
    /// want of resources or a gateway's time-out: the same write fails again (DAViCal 1.1.12's
    /// reply code on some meetings).
    var failsInServerCode: Bool { get }
    /// What the server said, in one line (its error page's first meaningful line).
    var serverLine: String { get }
}
