import Foundation

/// Whether a write may make the server send scheduling messages. Servers that schedule
/// implicitly (RFC 6638: Cyrus, DAViCal; so Fastmail, iCloud, Google) send an invitation to
/// every attendee when a PUT stores a meeting the account organizes, an update or a
/// cancellation when it changes or deletes one, and a reply when an attendee's copy changes.
public enum SchedulingIntent: Sendable, Hashable {
    /// A copy of what already exists elsewhere (every write a sync makes): the server is asked
    /// to send nothing. Cyrus honours `Scheduling-Enabled: F` on PUT and DELETE (and stores the
    /// object unchanged); `Schedule-Reply: F` on DELETE (RFC 6638 §8.1) keeps an attendee's
    /// deletion from declining, on any server that implements it.
    case copy
    /// The person's own action (inviting, answering, cancelling): the server schedules as it
    /// would for any client.
    case personsAction

    /// The request headers that say so, for `method` (`PUT` or `DELETE`); a PUT carries
    /// `Schedule-Reply: F` too on a server that takes it as "no scheduling for this request"
    /// (`scheduleReplySwitches`: sabre/dav, which ignores `Scheduling-Enabled`).
    func headers(for method: String, scheduleReplySwitches: Bool = false) -> [(name: String, value: String)] {
        guard self == .copy else { return [] }
        return method == "DELETE" || scheduleReplySwitches
            ? [("Scheduling-Enabled", "F"), ("Schedule-Reply", "F")] : [("Scheduling-Enabled", "F")]
    }
}
