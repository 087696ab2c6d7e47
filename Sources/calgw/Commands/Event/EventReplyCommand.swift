import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// `calgw event reply`: answer an invitation.
struct EventReplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply",
        abstract: "Answer an invitation: accept, decline or accept tentatively.",
        // One answer of the three, which the generated line would list as if all went together.
        usage: "calgw event reply [<options>] <uid> (--accept | --decline | --tentative)",
        discussion: """
            Sets your own attendee's PARTSTAT in the event (you: the account's calendar \
            addresses as the server gives them, or --address), writes the file and sends it to \
            the server, which delivers the reply to the organizer if it schedules meetings \
            (Cyrus, so Fastmail; DAViCal). With --occurrence only that occurrence is answered \
            (an exception is made from the series if it has none). SEQUENCE is the organizer's \
            and stays. --comment goes with this answer only: an answer without it sends none. \
            A cancelled meeting, or one in a calendar shared read-only, takes no answer.

            Examples:
              calgw event reply 3f2a... --accept
              calgw event reply 3f2a... --decline --comment "On leave that week"
              calgw event reply 3f2a... --tentative --occurrence 2026-04-06T09:30
            """
    )

    enum Choice: String, EnumerableFlag {
        case accept, decline, tentative

        var answer: InvitationReply.Answer {
            switch self {
            case .accept: .accepted
            case .decline: .declined
            case .tentative: .tentative
            }
        }

        static func help(for value: Choice) -> ArgumentHelp? {
            switch value {
            case .accept: "Accept (one of the three answers)."
            case .decline: "Decline."
            case .tentative: "Accept tentatively."
            }
        }
    }

    @OptionGroup var options: EventOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The event's UID.") var uid: String

    @Flag var choice: Choice

    @Option(help: ArgumentHelp("A note for the organizer.", valueName: "text"))
    var comment: String?

    @Option(help: ArgumentHelp("Answer only this occurrence (its original start).", valueName: "time"))
    var occurrence: String?

    @Option(
        name: .customLong("address"),
        help: ArgumentHelp(
            "Your calendar address, as the invitation names you (repeatable), besides the server's for the account.",
            valueName: "mailto:…"))
    var addresses: [String] = []

    func run() async throws {
        let target = try EventTarget(options: options)
        let file = try target.find(uid: uid)
        let answered: InvitationReply.Answered
        do {
            answered = try await InvitationReply.answering(
                choice.answer, comment: comment, uid: uid, occurrence: occurrence, in: file, zone: options.tz,
                given: addresses, pair: target.pair, offline: options.offline, now: EventTarget.now())
        } catch let refusal as InvitationReply.Refusal {
            // Named by its file, so the line can be found and fixed.
            guard case .invalidAddress(_, let value, let line) = refusal else { throw refusal }
            let path = target.files.directory.path(file.name)
            throw CLIError(
                refusal.description,
                hint: "write it as ATTENDEE;…:mailto:\(CalendarUser.normalized(value)) at \(path):\(line) "
                    + "(`calgw lint \(path)` shows it), then answer again")
        }
        if !options.offline, await CalendarAccess.isReadOnly(target.pair) == true {
            throw CLIError(
                "the calendar of pair \(target.pair.name) is read-only for this account (shared without write access): "
                    + "an answer cannot be stored there, so none is sent; nothing was written",
                hint:
                    "answer where the invitation reached you (your own calendar), or ask the calendar's owner for write access"
            )
        }
        try await EventWrite(
            target: target, options: options, output: output, personsActions: [uid], isReply: true, message: .reply
        )
        .apply(SpanEditResult(resource: answered.calendar, newSeries: nil), to: file, uid: uid)
        if !output.quiet && !options.offline,
            let why = SchedulingNote.unsentNorMailed(pair: target.pair, serverSchedules: answered.own.serverSchedules)
        {
            let organizer = answered.calendar.components[answered.index]["ORGANIZER"]?.value ?? "the organizer"
            Terminal.err("note: \(why), so no reply is delivered: tell \(organizer) yourself")
        }
    }
}
