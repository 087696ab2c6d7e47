import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// `calgw event open`: edit an event's iCalendar text in `$VISUAL` / `$EDITOR`.
struct EventOpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Edit an event's iCalendar text in $VISUAL or $EDITOR.",
        discussion: """
            A temporary copy is opened. When it is saved, it is checked: with errors the \
            problems are listed and the editor opens again with them in # lines at the top \
            (calgw removes them); saving it again unchanged, or empty, gives up. Without a \
            terminal the first save with errors ends the command (exit 1), listing them. An \
            unchanged or empty first save changes nothing. The result replaces the event's file and \
            goes to the server unless --offline. SEQUENCE and LAST-MODIFIED are bumped unless \
            you bumped SEQUENCE yourself. With --occurrence only that occurrence is opened (an \
            exception is made from the series if it has none).

            Examples:
              calgw event open 3f2a...
              EDITOR=nano calgw event open 3f2a... --occurrence 2026-04-06T09:30
            """
    )

    @OptionGroup var options: EventOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The event's UID.") var uid: String

    @Option(help: ArgumentHelp("Open only this occurrence (its original start).", valueName: "time"))
    var occurrence: String?

    func run() async throws {
        let target = try EventTarget(options: options)
        let file = try target.find(uid: uid)
        var resource = file.calendar
        var focus: (index: Int, calendar: Component)?
        if let occurrence {
            let index: Int
            (resource, index) = try SeriesEdit.occurrence(occurrence, of: file, uid: uid, zone: options.tz)
            // Only that occurrence (with the zones it refers to) goes to the editor.
            var part = resource
            part.components = resource.components.filter { $0.name == "VTIMEZONE" } + [resource.components[index]]
            focus = (index, part)
        }

        let review = EditorReview(original: focus?.calendar ?? resource, now: EventTarget.now())
        let edited: Component
        switch try EditorSession(name: SafeName.forTemporaryFile(uid), say: Terminal.err).run(review: review) {
        case .unchanged:
            if !output.quiet { Terminal.err("no change; nothing written") }
            return
        case .empty:
            if !output.quiet { Terminal.err("empty file; nothing written") }
            return
        case .accept(let calendar):
            edited = calendar
        case .reopen:
            return  // the session only ends on a usable or abandoned save
        }
        if let focus {
            guard let component = edited.components.first(where: { $0.name != "VTIMEZONE" }) else { return }
            resource.components[focus.index] = component
        } else {
            resource = edited
        }
        var acting = MeetingWrite.personsActions(resource, uid: uid)
        let role =
            acting.isEmpty
            ? .none : await MeetingRole.of(file.calendar, uid: uid, pair: target.pair, offline: options.offline)
        if case .attendee = role {
            // Only what is the attendee's own: no new version of the meeting, nothing to schedule.
            try role.refuse(AttendeeChange.organizersFields(before: file.calendar, after: resource), uid: uid)
            resource = AttendeeChange.keepingSequence(of: file.calendar, in: resource)
            acting = []
        }
        try await EventWrite(
            target: target, options: options, output: output, personsActions: acting,
            message: acting.isEmpty ? nil : role.message(deleting: false)
        )
        .apply(
            role.announcing(SpanEditResult(resource: resource, newSeries: nil), before: file.calendar), to: file,
            uid: uid)
    }
}
