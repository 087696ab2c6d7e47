import CalendarSync
import Failures
import Foundation
import ICalendar
import Recurrence

/// Writes what an edit produced to the vdir (replacing or deleting the resource, adding a
/// split's new series), then sends it to the server unless `--offline`, and reports.
struct EventWrite {
    var target: EventTarget
    var options: EventOptions
    var output: OutputOptions
    /// UIDs whose write is the person's own action (a reply): the server schedules for them.
    var personsActions: Set<String> = []
    /// The write answers an invitation (`event reply`), which tells of an unsent reply itself.
    var isReply = false
    /// What a meeting's write sends (nil: nothing, as for a plain event or an attendee's own
    /// change), for the report's `scheduling`.
    var message: SchedulingReport.Message?

    struct Report: Encodable {
        var uid: String
        /// "updated" or "deleted".
        var change: String
        /// The UID of the new series a this-and-future split made.
        var newSeries: String?
        var pushed: Bool
        /// Why the change is not on the server yet (the next push sends it).
        var pending: String?
        /// For a meeting, what the server was asked to send and says it did.
        var scheduling: SchedulingReport?
        /// What the push had to tell besides (a message the server failed to send).
        var notes: [String]
    }

    /// Says on stderr that the server sent an answer nowhere: it kept no SCHEDULE-STATUS on
    /// the organizer, as when the address answered for is not one it knows for the account.
    static func warnUnsentReply(_ report: SchedulingReport?) {
        guard let report, report.message == .reply, report.asked, report.recipients.allSatisfy({ $0.status == nil })
        else { return }
        let organizer = report.recipients.first.map { CalendarUser.normalized($0.address) } ?? "the organizer"
        Terminal.err(
            "warning: the server stored your answer but marks no reply to \(organizer) as sent "
                + "(it does not take the address you answered for as this account's)")
        Terminal.err("hint: tell \(organizer) yourself, or answer from the account the invitation was sent to")
    }

    func apply(_ result: SpanEditResult, to file: EventFile, uid: String) async throws {
        let newUID = try target.files.write(result, replacing: file, uid: uid)
        let uids = [uid] + (newUID.map { [$0] } ?? [])
        // From here on the change is made: report it whatever happens to the push.
        // A split's new series of a meeting goes as the person's action too (its invitations).
        let acting = personsActions.isEmpty ? personsActions : personsActions.union(newUID.map { [$0] } ?? [])
        var sender = EventPush(target: target, options: options, personsActions: acting)
        if isReply { sender.answers = [uid] }
        let outcome = await sender.push(uids: uids)
        // Nothing was answered: the person is to look at the new version and answer again.
        if outcome.answerOutdated {
            throw CLIError(outcome.pendingReason ?? "your answer was not sent", hint: outcome.hint)
        }
        let pushed = outcome.pushed
        // What the push left in the file (the server's version); when nothing was pushed the
        // file holds what was written, and is not read again.
        let stored =
            result.resource == nil
            ? nil
            : pushed ? (target.files.reread(file, uid: uid) ?? (try? target.find(uid: uid)))?.calendar : result.resource
        let scheduling = MeetingMail.deliver(
            MeetingWrite.scheduling(
                message, acting: acting, pushed: pushed, pair: target.pair, offline: options.offline,
                stored: stored, before: file.calendar, uid: uid, deletion: outcome.deletion),
            pair: target.pair, offline: options.offline, stored: stored ?? result.resource, before: file.calendar,
            uid: uid)
        let report = Report(
            uid: uid, change: result.resource == nil ? "deleted" : "updated", newSeries: newUID,
            pushed: pushed, pending: outcome.pendingReason, scheduling: scheduling, notes: outcome.notes)
        if output.json {
            try Terminal.printJSON(report)
        } else if !output.quiet {
            var line = "\(report.change) \(uid)"
            if let newUID { line += "; the following occurrences are now \(newUID)" }
            if outcome.heldBack {
                line += " (in the vdir only: the server failed on it)"
            } else if !pushed {
                line +=
                    target.pair.remote.isReadOnly
                    ? " (in the vdir only: the feed is read-only and takes no changes)"
                    : " (in the vdir; `calgw push` sends it to the server)"
            }
            Terminal.out(line)
            for line in scheduling?.lines ?? [] { Terminal.out(line) }
        }
        if outcome.heldBack {
            for note in outcome.notes where !output.quiet { Terminal.err("note: \(note)") }
            throw CLIError(MeetingWrite.undelivered(message, in: file.calendar, uid: uid, outcome), hint: outcome.hint)
        }
        EventPush.warn(outcome, output: output)
        if !output.quiet && target.pair.remote.marksSchedulingStatus { Self.warnUnsentReply(scheduling) }
        // The reply command says this itself, with the organizer's name.
        if !acting.isEmpty && !target.pair.schedules && !output.quiet && !options.offline && !isReply,
            let why = SchedulingNote.unsentNorMailed(pair: target.pair, serverSchedules: nil)
        {
            Terminal.err("note: \(why), so the meeting's attendees are sent nothing")
        }
    }
}
