import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// `calgw event edit`: changes a whole series, one occurrence, or an occurrence and the
/// following ones.
struct EventEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit an event: the whole series, one occurrence, or this and the following ones.",
        discussion: """
            Without --occurrence the whole event changes (for a series: every occurrence; \
            moving its start moves the exceptions with it). With --occurrence (the occurrence's \
            original start) and --span this, only that occurrence changes; with --span future, \
            the series is split there and the change applies from that occurrence on, as a \
            new series. An empty value (--location "") removes the field. A meeting you \
            organize gets a new SEQUENCE, so its attendees are told once, and a new time or \
            rule asks them to answer again; in a meeting you were invited to, these fields are \
            the organizer's and are refused (answer with `calgw event reply`).

            Examples:
              calgw event edit 3f2a... --summary "Team sync" --location "Room 4"
              calgw event edit 3f2a... --occurrence 2026-04-06T09:30 --start 2026-04-06T10:00
              calgw event edit 3f2a... --occurrence 2026-05-04T09:30 --span future \\
                  --rrule "FREQ=WEEKLY;BYDAY=TU"
            """
    )

    @OptionGroup var options: EventOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var occurrence: OccurrenceOptions

    @Argument(help: "The event's UID.") var uid: String

    @Option(help: "A new title.") var summary: String?
    @Option(
        help: ArgumentHelp(
            "A new start; the event keeps its length unless --end or --duration is given.", valueName: "time"))
    var start: String?
    @Option(help: ArgumentHelp("A new end.", valueName: "time")) var end: String?
    @Option(help: ArgumentHelp("A new length instead of --end.", valueName: "length")) var duration: String?
    @Option(help: "A new place (\"\" removes it).") var location: String?
    @Option(help: "New notes (\"\" removes them).") var description: String?
    @Option(help: "A new status: CONFIRMED, TENTATIVE or CANCELLED.") var status: String?
    @Option(help: ArgumentHelp("A new recurrence rule (whole series or --span future).", valueName: "rule")) var rrule:
        String?

    func validate() throws {
        if end != nil && duration != nil { throw ValidationError("give --end or --duration, not both") }
        if let status, !["CONFIRMED", "TENTATIVE", "CANCELLED", ""].contains(status.uppercased()) {
            throw ValidationError("--status must be CONFIRMED, TENTATIVE or CANCELLED")
        }
        try occurrence.validate()
    }

    func run() async throws {
        let target = try EventTarget(options: options)
        let file = try target.find(uid: uid)
        let changes = try makeChanges(master: file.calendar)
        if changes.isEmpty {
            throw CLIError(
                "nothing to change", hint: "give at least one of --summary, --start, --end, ...", status: .usage)
        }
        let role = await MeetingRole.of(file.calendar, uid: uid, pair: target.pair, offline: options.offline)
        try role.refuse(organizersFields, uid: uid)
        let edit = try SeriesEdit(file: file, uid: uid)
        let result: SpanEditResult
        if let rid = try occurrence.recurrenceID(time: SeriesEdit.times(for: file, uid: uid, zone: options.tz)) {
            result = try edit.perform(on: rid) { editor, instances in
                try editor.editOccurrence(
                    rid, span: occurrence.span, changes: changes, instances: instances, newUID: EventTarget.newUID())
            }
        } else {
            result = try edit.perform(on: nil) { editor, _ in
                SpanEditResult(resource: try editor.editSeries(changes), newSeries: nil)
            }
        }
        let moves =
            changes.start != nil || changes.end != nil || changes.duration != nil || changes.recurrenceRule != nil
        try await EventWrite(
            target: target, options: options, output: output,
            personsActions: MeetingWrite.personsActions(file.calendar, uid: uid), message: role.message(deleting: false)
        )
        .apply(role.announcing(result, before: file.calendar, newSeriesMoved: moves), to: file, uid: uid)
    }

    /// The options given, each naming what it changes: all of them are the organizer's.
    var organizersFields: [String] {
        [
            ("time (--start)", start), ("end (--end)", end), ("length (--duration)", duration),
            ("recurrence (--rrule)", rrule),
            ("title (--summary)", summary), ("place (--location)", location), ("notes (--description)", description),
            ("status (--status)", status),
        ].compactMap { $0.1 == nil ? nil : $0.0 }
    }

    func makeChanges(master calendar: Component) throws -> EventChanges {
        var changes = EventChanges(summary: summary, location: location, description: description, status: status)
        let currentStart = SeriesEdit.master(of: calendar, uid: uid)?["DTSTART"]?.dateTime
        let reader = SeriesEdit.times(for: currentStart, zone: options.tz)
        changes.start = try start.map { try reader.parse($0, option: "--start") }
        changes.end = try end.map { try reader.parse($0, option: "--end") }
        if let s = changes.start ?? currentStart, s.isDate, let e = changes.end, e.isDate {
            changes.end = DateTimeValue(date: e.date.adding(days: 1))  // the last day, included
        }
        changes.duration = try duration.map { try DurationArgument.parse($0, option: "--duration") }
        if let rrule, let s = changes.start ?? currentStart {
            changes.recurrenceRule = try RuleArgument.parse(rrule, start: s)
        }
        return changes
    }
}

/// `--occurrence` and `--span`, shared by edit and delete.
struct OccurrenceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The occurrence's original start (its RECURRENCE-ID).", valueName: "time"))
    var occurrence: String?

    @Option(
        help: ArgumentHelp("With --occurrence: this (only it) or future (it and every later one).", valueName: "span"))
    var span: EditSpan = .thisEvent

    func validate() throws {
        if occurrence == nil && span == .futureEvents { throw ValidationError("--span future needs --occurrence") }
    }

    func recurrenceID(time: TimeArgument) throws -> DateTimeValue? {
        try occurrence.map { try time.parse($0, option: "--occurrence") }
    }
}

extension EditSpan: ExpressibleByArgument {}
