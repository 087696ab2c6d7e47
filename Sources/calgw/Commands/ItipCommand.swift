import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Mail

/// `calgw itip`: a scheduling message that came by mail, applied to the vdir.
struct ItipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "itip",
        abstract: "Apply an invitation, cancellation or answer that came by mail to the vdir.",
        discussion: """
            Reads one message from FILE or stdin as a mail program pipes it (a whole mail, or a \
            bare iCalendar object with METHOD) and applies it (RFC 5546) where its meeting is \
            held: a REQUEST adds or updates the invitation (then `calgw invitations` lists it), a \
            CANCEL marks it cancelled, a REPLY records the attendee's answer in a meeting you \
            organize. Older or repeated messages change nothing. Mail is not authenticated: a \
            REPLY from someone other than the attendee it answers for, or a REQUEST for a meeting \
            you hold from another organizer, is refused (exit 1). Nothing in a message is run. \
            --show prints it as a person reads it (mailcap: text/calendar; calgw itip --show %s; \
            copiousoutput).

            Examples:
              calgw itip invite.eml
              macro pager I "<pipe-message>calgw itip<enter>"     (mutt, neomutt)
              :pipe -m calgw itip                                 (aerc)
              calgw itip --accept invite.eml                      (applies it and accepts)
            """
    )

    @OptionGroup var options: EventOptions
    @OptionGroup var output: OutputOptions
    @Flag(help: "Say what the message would change; write nothing.") var dryRun = false
    @Flag(help: "Show the message as a person reads it (for mailcap); write nothing.") var show = false
    @Flag(help: "Take an invitation held for its size (a series more often than hourly, thousands of attendees).")
    var takeLarge = false
    @Flag(help: "Answer an invitation once applied, as calgw event reply does (for a mail program's macro).")
    var answer: EventReplyCommand.Choice?
    @Option(help: ArgumentHelp("A note for the organizer, with the answer.", valueName: "text")) var comment: String?
    @Argument(help: "The message (default: stdin).") var file: String?
    @Option(
        name: .customLong("address"), help: ArgumentHelp("Your calendar address (repeatable).", valueName: "mailto:…"))
    var addresses: [String] = []

    func run() async throws {
        let mail: MailMessage, message: ITipMessage
        do {
            (mail, message) = try ITipMessage.read(file)
        } catch {
            if output.json { try Terminal.printJSON(ITipDelivery.Report.unreadable(error)) }
            throw CLIError("\(error)", hint: "pipe the whole mail, or an .ics with METHOD", status: .usage)
        }
        let pairs = try options.global.loadConfig().select(pair: nil, all: true).filter { !$0.localIsServer }.map {
            try $0.pair
        }
        if show {
            let view = await InvitationView.show(
                message, pairs: pairs, chosen: options.global.pair, collection: options.collection, given: addresses)
            return view.forEach { Terminal.out($0) }
        }
        let target = try ITipTarget.locate(
            uid: message.uid, in: pairs, chosen: options.global.pair, collection: options.collection)
        let own = try await OwnAddresses.resolve(given: addresses, pair: target.pair, offline: options.offline)
        let report = try await ITipDelivery.deliver(
            message, sender: ITipSender(mail: mail), to: target, own: Set(own.addresses.map(CalendarUser.normalized)),
            offline: options.offline, dryRun: dryRun, takesLarge: takeLarge)
        if output.json {
            try Terminal.printJSON(report)
        } else if !output.quiet {
            Terminal.out(report.line)
            for note in report.notes { Terminal.err("note: \(note)") }
        }
        if report.action == "refused" { throw ExitWithStatus(status: .failure) }
        guard let answer, report.answerable else { return }
        var reply = try EventReplyCommand.parse([message.uid, "--\(answer.rawValue)"])
        (reply.options, reply.output, reply.comment, reply.addresses) = (options, output, comment, addresses)
        reply.occurrence = message.occurrenceArgument
        try await reply.run()
    }
}
