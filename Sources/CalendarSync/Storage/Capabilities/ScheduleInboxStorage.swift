import Foundation

/// A calendar on a server that delivers an organizer's changes to the account's schedule Inbox
/// without applying them to the account's copy of the meeting (DAViCal): the client applies
/// them (``OrganizerMessage``), so the copy then syncs down as any change made on the server.
public protocol ScheduleInboxStorage: CalendarStorage {
    /// Applies the organizer's messages waiting in the account's schedule Inbox to the copies
    /// of their meetings in this calendar, and the attendees' answers (``AttendeeReply``) to the
    /// copies of the meetings the account organizes, then removes each message applied or found
    /// stale, and each cancellation of a whole meeting that none of the account's calendars
    /// holds any more (the server removed the copy itself: nothing is left to apply it to). A
    /// server that applies them itself is left alone (nothing is read).
    ///
    /// Each copy is written before its messages are removed, conditioned on the version read,
    /// so a run stopped at any point leaves the messages for the next run, which finds them
    /// stale and removes them; nothing is applied over a newer version.
    /// - Returns: how many messages were applied (zero where the server needs none).
    /// - Throws: the server's failure to read the Inbox or to write a copy.
    func applyScheduleInbox() async throws -> ScheduleInboxApplied
}

/// What one reading of the schedule Inbox applied.
public struct ScheduleInboxApplied: Sendable, Equatable {
    /// The organizers' REQUESTs and CANCELs applied to the account's copies.
    public var organizerUpdates = 0
    /// The attendees' REPLYs applied to the copies of meetings the account organizes.
    public var answers = 0
    /// The cancellations of whole meetings none of the account's calendars holds any more,
    /// removed as moot (not counted in ``total``: they change no copy).
    public var mootCancellations = 0
    /// Messages removed that the server had applied itself (Cyrus), or that were about
    /// meetings no calendar of the account holds (not counted in ``total``: calgw changed no
    /// copy for them).
    public var removed = 0

    /// Nothing applied.
    public init(organizerUpdates: Int = 0, answers: Int = 0) {
        self.organizerUpdates = organizerUpdates
        self.answers = answers
    }

    /// All messages applied.
    public var total: Int { organizerUpdates + answers }
}
