import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// `calgw event add`: creates an event and prints its UID.
struct EventAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Create an event; prints its UID.",
        discussion: """
            A date alone (2026-03-29) makes an all-day event; --end is then the last day, \
            included. Without --end or --duration a timed event lasts an hour and an all-day \
            event one day. With --attendee the event is a meeting you organize: a server \
            that schedules (Cyrus, so Fastmail; DAViCal) sends each attendee one invitation.

            Examples:
              calgw event add --summary "Dentist" --start 2026-03-29T10:00 --duration 45m
              calgw event add --summary Standup --start 2026-03-30T09:30 \\
                  --duration 15m --tz Europe/Berlin \\
                  --rrule "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
              calgw event add --summary "Holiday" --start 2026-08-03 --end 2026-08-14
              uid=$(calgw event add --summary Review --start 2026-04-01T14:00)
              calgw event add --summary Planning --start 2026-04-02T10:00 --attendee bob@example.com
            """
    )

    @OptionGroup var options: EventOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "The title.") var summary: String
    @Option(help: ArgumentHelp("When it starts: a date, or a date and time.", valueName: "time")) var start: String
    @Option(help: ArgumentHelp("When it ends (for all-day events: the last day).", valueName: "time")) var end: String?
    @Option(help: ArgumentHelp("How long it lasts instead of --end: 45m, 1h30m, 2d, PT1H.", valueName: "length"))
    var duration: String?
    @Flag(help: "An all-day event (the default when --start is a date).") var allDay = false
    @Option(help: ArgumentHelp("A recurrence rule (RFC 5545), e.g. FREQ=WEEKLY;COUNT=10.", valueName: "rule"))
    var rrule: String?
    @Option(help: "Where it takes place.") var location: String?
    @Option(help: "Notes.") var description: String?

    @Option(
        name: .customLong("attendee"),
        help: ArgumentHelp(
            "Invite this address (repeatable; \"Name <address>\" gives the name too); you organize the meeting.",
            valueName: "address"))
    var attendees: [String] = []

    @Option(
        name: .customLong("address"),
        help: ArgumentHelp(
            "Your calendar address, as organizer (default: the server's for the account).",
            valueName: "mailto:…"))
    var addresses: [String] = []

    func validate() throws {
        if end != nil && duration != nil { throw ValidationError("give --end or --duration, not both") }
        for attendee in attendees where Invitee(parsing: attendee) == nil {
            throw ValidationError(
                "--attendee \(attendee) is not an address (name@example.com, mailto:name@example.com or \"Name <name@example.com>\")"
            )
        }
    }

    func run() async throws {
        let target = try EventTarget(options: options)
        let draft = try makeDraft()
        let uid = EventTarget.newUID()
        var resource = try draft.resource(uid: uid, now: EventTarget.now())
        var own: OwnAddresses?
        if !attendees.isEmpty {
            let organizer = try await OwnAddresses.resolve(
                given: addresses, pair: target.pair, offline: options.offline)
            resource = MeetingWrite.meeting(resource, organizer: organizer.addresses[0], attendees: attendees)
            own = organizer
        }
        let name = try target.files.create(resource, uid: uid)
        // From here on the event exists: print its UID whatever happens to the push.
        let sender = EventPush(
            target: target, options: options, personsActions: attendees.isEmpty ? [] : [uid])
        let outcome = await sender.push(uids: [uid])
        let stored = outcome.pushed ? (try? target.find(uid: uid))?.calendar : nil
        let scheduling = MeetingMail.deliver(
            MeetingWrite.scheduling(
                attendees.isEmpty ? nil : .invitation, acting: [uid], pushed: outcome.pushed, pair: target.pair,
                offline: options.offline, stored: stored, before: resource, uid: uid),
            pair: target.pair, offline: options.offline, stored: stored, before: resource, uid: uid)
        if output.json {
            try Terminal.printJSON(
                Result(
                    uid: uid, file: target.files.directory.path(name), pushed: outcome.pushed,
                    pending: outcome.pendingReason, scheduling: scheduling))
        } else {
            Terminal.out(uid)
            // The UID alone on stdout, for `uid=$(calgw event add …)`: what was sent goes to stderr.
            if !output.quiet { for line in scheduling?.lines ?? [] { Terminal.err(line) } }
        }
        EventPush.warn(outcome, output: output)
        if let unmailed = scheduling?.unmailed { throw CLIError(unmailed, hint: SchedulingReport.unmailedHint) }
        if let own, !output.quiet && !options.offline,
            let why = SchedulingNote.unsentNorMailed(pair: target.pair, serverSchedules: own.serverSchedules)
        {
            Terminal.err("note: \(why), so no invitation was sent: tell the attendees yourself")
        }
    }

    /// The JSON: `pending` says why the event is not on the server yet (the next push sends
    /// it); `scheduling`, for a meeting, what the server was asked to send and says it sent.
    struct Result: Encodable {
        var uid: String, file: String, pushed: Bool, pending: String?, scheduling: SchedulingReport?
    }

    func makeDraft() throws -> NewEvent {
        let time = options.time
        var startValue = try time.parse(start, option: "--start")
        if allDay {
            guard startValue.isDate else {
                throw CLIError(
                    "--all-day takes a date for --start, not \(start)", hint: "write --start \(start.prefix(10))",
                    status: .usage)
            }
        }
        var endValue = try end.map { try time.parse($0, option: "--end") }
        if startValue.isDate, let e = endValue {
            guard e.isDate else {
                throw CLIError("an all-day event needs a date for --end, not \(e)", status: .usage)
            }
            endValue = DateTimeValue(date: e.date.adding(days: 1))  // the last day, included
        } else if let e = endValue, e.isDate {
            endValue = DateTimeValue(e.local, form: startValue.form)  // midnight at the start of that day
        }
        if !startValue.isDate, let e = endValue, e.form != startValue.form {
            // An end given as an instant is shown in the start's zone.
            endValue = DateTimeFrame(resolver: TimeZoneResolver()).convert(e, to: startValue.form)
        }
        let rule = try rrule.map { try RuleArgument.parse($0, start: startValue) }
        startValue = startValue.isDate ? DateTimeValue(date: startValue.date) : startValue
        return NewEvent(
            summary: summary, start: startValue, end: endValue,
            duration: try duration.map { try DurationArgument.parse($0, option: "--duration") },
            recurrenceRule: rule, location: location, description: description)
    }
}
