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

    /// Saves the edit the whole way (``EventSave``) and reports it.
    func apply(_ result: SpanEditResult, to file: EventFile, uid: String) async throws {
        var save = EventSave(pair: target.pair, calendar: target.calendar, files: target.files)
        (save.offline, save.personsActions, save.isReply, save.message) =
            (options.offline, personsActions, isReply, message)
        let saved = try await save.save(result, replacing: file, uid: uid)
        let outcome = saved.push
        // Nothing was answered: the person is to look at the new version and answer again.
        if outcome.answerOutdated {
            throw CLIError(outcome.pendingReason ?? "your answer was not sent", hint: outcome.hint)
        }
        let report = Report(
            uid: uid, change: saved.deleted ? "deleted" : "updated", newSeries: saved.newSeries,
            pushed: outcome.pushed, pending: outcome.pendingReason, scheduling: saved.scheduling, notes: outcome.notes)
        if output.json {
            try Terminal.printJSON(report)
        } else if !output.quiet {
            var line = "\(report.change) \(uid)"
            if let newUID = saved.newSeries { line += "; the following occurrences are now \(newUID)" }
            if outcome.heldBack {
                line += " (in the vdir only: the server failed on it)"
            } else if !outcome.pushed {
                line +=
                    target.pair.remote.isReadOnly
                    ? " (in the vdir only: the feed is read-only and takes no changes)"
                    : " (in the vdir; `calgw push` sends it to the server)"
            }
            Terminal.out(line)
            for line in saved.scheduling?.lines ?? [] { Terminal.out(line) }
        }
        if let unmailed = saved.scheduling?.unmailed { throw CLIError(unmailed, hint: SchedulingReport.unmailedHint) }
        if let undelivered = saved.undelivered {
            for note in outcome.notes where !output.quiet { Terminal.err("note: \(note)") }
            throw CLIError(undelivered, hint: outcome.hint)
        }
        EventPush.warn(outcome, output: output)
        if !output.quiet, let (warning, hint) = save.answerWentNowhere(saved) {
            Terminal.err("warning: \(warning)\nhint: \(hint)")
        }
        // The reply command says this itself, with the organizer's name.
        if !output.quiet, let why = saved.unsentNote {
            Terminal.err("note: \(why), so the meeting's attendees are sent nothing")
        }
    }
}
