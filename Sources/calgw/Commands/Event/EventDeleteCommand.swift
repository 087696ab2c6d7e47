import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// `calgw event delete`: deletes a whole event, one occurrence, or an occurrence and the
/// following ones.
struct EventDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an event: the whole series, one occurrence, or this and the following ones.",
        discussion: """
            Deleting one occurrence (--span this) excludes it from the series; deleting with \
            --span future ends the series before it. Deleting from the first occurrence on \
            deletes the whole event.

            Examples:
              calgw event delete 3f2a...
              calgw event delete 3f2a... --occurrence 2026-04-06T09:30
              calgw event delete 3f2a... --occurrence 2026-06-01T09:30 --span future
            """
    )

    @OptionGroup var options: EventOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var occurrence: OccurrenceOptions

    @Argument(help: "The event's UID.") var uid: String

    @Flag(
        help:
            "For a meeting you were invited to: delete your copy without declining (a scheduling server sends no reply)."
    )
    var noReply = false

    func validate() throws { try occurrence.validate() }

    func run() async throws {
        let target = try EventTarget(options: options)
        let file = try target.find(uid: uid)
        let edit = try SeriesEdit(file: file, uid: uid)
        let result: SpanEditResult
        if let rid = try occurrence.recurrenceID(time: SeriesEdit.times(for: file, uid: uid, zone: options.tz)) {
            result = try edit.perform(on: rid) { editor, instances in
                try editor.deleteOccurrence(rid, span: occurrence.span, instances: instances)
            }
        } else {
            result = edit.editor.deleteSeries()
        }
        // A meeting's deletion cancels it (one's own) or declines it (an invitation), unless --no-reply.
        let acting = noReply ? [] : MeetingWrite.personsActions(file.calendar, uid: uid)
        let role =
            acting.isEmpty
            ? .none : await MeetingRole.of(file.calendar, uid: uid, pair: target.pair, offline: options.offline)
        try await EventWrite(
            target: target, options: options, output: output, personsActions: acting,
            // An occurrence deleted is the series changed: servers send it as an update
            // (Cyrus a REQUEST with the EXDATE, DAViCal the series' REQUEST), not as a CANCEL.
            message: role.message(deleting: result.resource == nil)
        )
        .apply(role.announcing(result, before: file.calendar), to: file, uid: uid)
    }
}
