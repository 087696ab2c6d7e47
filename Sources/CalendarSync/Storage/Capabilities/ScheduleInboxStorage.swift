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

    /// Where the account's schedule Inbox stands now, on a server that files messages there
    /// which change no calendar of the account (DAViCal files an attendee's REPLY sent by its
    /// Outbox in the organizer's Inbox and changes nothing else): a run that brought no change
    /// reads the Inbox only when this differs from what the last reading left. Nil where no
    /// such look is needed, without a request.
    /// - Parameter known: the mark the last reading left, whose Inbox URL is used rather than
    ///   asked again.
    func scheduleInboxMark(known: ScheduleInboxMark?) async throws -> ScheduleInboxMark?

    /// The meetings among `uids` whose organizer cancelled them whole by a message waiting in
    /// the account's schedule Inbox: DAViCal deletes an attendee's copy of a meeting its
    /// organizer deleted and files the CANCEL there, so such deletions are the organizer's, not
    /// a calendar gone missing (see ``SyncEngine``'s mass-deletion rail). Read only when the
    /// rail would stop a run (one reading of the Inbox).
    func cancelledMeetings(among uids: Set<String>) async throws -> Set<String>
}

/// Where an account's schedule Inbox stood: its URL, and its change tokens as one string.
public struct ScheduleInboxMark: Codable, Equatable, Sendable {
    /// The Inbox's URL.
    public var inbox: String
    /// Its sync-token and getctag as the server gave them.
    public var token: String

    /// The mark of the Inbox at `inbox`, with `token`.
    public init(inbox: String, token: String) {
        self.inbox = inbox
        self.token = token
    }
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
