import Foundation
import ICalendar
import Recurrence

/// An edit of an event saved the whole way, as every `event` command saves one: written to the
/// vdir (the resource replaced or deleted, a split's new series added), sent to the server
/// unless offline (``EventPush``), the server's version read back, what a meeting's write made
/// the server send worked out (``MeetingWrite``), and mailed where the server sends nothing and
/// the pair has a `mail_command` (``MeetingMail``). The command only renders the outcome, so
/// the whole way is callable, and tested, without a command line.
public struct EventSave {
    /// The pair the edit belongs to.
    public var pair: Pair
    /// The calendar of it whose vdir holds the event.
    public var calendar: PairCalendar
    /// That vdir's events.
    public var files: EventFiles
    /// Nothing is sent: the change waits for the next push or sync.
    public var offline = false
    /// UIDs whose write is the person's own action (a reply, a meeting of one's own): the
    /// server schedules for them.
    public var personsActions: Set<String> = []
    /// The write answers an invitation (`event reply`).
    public var isReply = false
    /// What a meeting's write sends (nil: nothing, as for a plain event or an attendee's own
    /// change).
    public var message: SchedulingReport.Message?

    /// A save of an edit to an event of `calendar` of `pair`, whose vdir `files` reads.
    public init(pair: Pair, calendar: PairCalendar, files: EventFiles) {
        self.pair = pair
        self.calendar = calendar
        self.files = files
    }

    /// What became of the edit.
    public struct Outcome {
        /// The event's UID.
        public var uid: String
        /// Whether the edit deleted the whole event.
        public var deleted: Bool
        /// The UID of the new series a this-and-future split made.
        public var newSeries: String?
        /// Where the change stands on the server.
        public var push: EventPush.Outcome
        /// For a meeting, what the server was asked to send and says it did, and what was mailed.
        public var scheduling: SchedulingReport?
        /// The UIDs whose write was the person's own action, a split's new series included.
        public var acting: Set<String>
        /// When the server failed on the change and holds it back: what was not delivered.
        public var undelivered: String?
        /// Why nobody is told of a meeting the person changed: the pair schedules nothing
        /// and mails nothing (nil for a reply, which says so itself, or when someone is told).
        public var unsentNote: String?
    }

    /// Saves `result`, the edit of the event `uid` that `file` held.
    /// - Throws: what writing the vdir threw; once the vdir holds the change nothing throws,
    ///   since doing the edit again would make it twice: the outcome says what is pending.
    public func save(_ result: SpanEditResult, replacing file: EventFile, uid: String) async throws -> Outcome {
        let newUID = try files.write(result, replacing: file, uid: uid)
        let uids = [uid] + (newUID.map { [$0] } ?? [])
        // A split's new series of a meeting goes as the person's action too (its invitations).
        let acting = personsActions.isEmpty ? personsActions : personsActions.union(newUID.map { [$0] } ?? [])
        var sender = EventPush(pair: pair, calendar: calendar, offline: offline, personsActions: acting)
        if isReply { sender.answers = [uid] }
        let push = await sender.push(uids: uids)
        var outcome = Outcome(
            uid: uid, deleted: result.resource == nil, newSeries: newUID, push: push, scheduling: nil, acting: acting)
        if push.answerOutdated { return outcome }
        // What the push left in the file (the server's version); when nothing was pushed the
        // file holds what was written, and is not read again.
        let stored =
            result.resource == nil
            ? nil
            : push.pushed ? (files.reread(file, uid: uid) ?? (try? files.find(uid: uid)))?.calendar : result.resource
        // Whether the server schedules is asked before anything is said of it, once per pair.
        if !acting.isEmpty, pair.schedules, !offline, pair.serverSchedules == nil,
            let account = try? await pair.askServerAccount()
        {
            pair.cacheServerAccount(account)
        }
        outcome.scheduling = MeetingMail.deliver(
            MeetingWrite.scheduling(
                message, acting: acting, pushed: push.pushed, pair: pair, offline: offline, stored: stored,
                before: file.calendar, uid: uid, deletion: push.deletion),
            pair: pair, offline: offline, stored: stored ?? result.resource, before: file.calendar, uid: uid)
        if push.heldBack { outcome.undelivered = MeetingWrite.undelivered(message, in: file.calendar, uid: uid, push) }
        if !acting.isEmpty && !pair.schedules && !offline && !isReply {
            outcome.unsentNote = SchedulingNote.unsentNorMailed(pair: pair, serverSchedules: nil)
        }
        return outcome
    }

    /// When the server stored the person's answer and marks it sent to nobody (it kept no
    /// SCHEDULE-STATUS on the organizer, as when the address answered for is not one it knows
    /// for the account): the warning and what to do; nil otherwise. Only a server that marks
    /// what it sent can tell.
    public func answerWentNowhere(_ outcome: Outcome) -> (warning: String, hint: String)? {
        guard pair.remote.marksSchedulingStatus, let report = outcome.scheduling, report.message == .reply,
            report.asked, report.recipients.allSatisfy({ $0.status == nil })
        else { return nil }
        let organizer = report.recipients.first.map { CalendarUser.normalized($0.address) } ?? "the organizer"
        return (
            "the server stored your answer but marks no reply to \(organizer) as sent "
                + "(it does not take the address you answered for as this account's)",
            "tell \(organizer) yourself, or answer from the account the invitation was sent to"
        )
    }
}
