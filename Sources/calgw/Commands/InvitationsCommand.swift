import ArgumentParser
import CalendarSync
import Foundation
import ICalendar

/// `calgw invitations`: the meetings that await the person's answer, across pairs.
struct InvitationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invitations",
        abstract: "List the invitations awaiting your answer, with the command that answers each.",
        discussion: """
            Reads the pairs' vdirs (every calendar of an account) for events that name you as \
            an attendee whose PARTSTAT is NEEDS-ACTION, organized by someone else. You are \
            found by the account's calendar addresses, asked of each pair's server once, or by \
            --address. Answer with `calgw event reply UID --accept | --decline | --tentative`.

            Examples:
              calgw invitations
              calgw invitations --all --json | jq -r '.[].uid'
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("address"), help: ArgumentHelp("Your calendar address (repeatable); default: each pair's server's for the account.",
                                                             valueName: "mailto:…"))
    var addresses: [String] = []

    /// One row of `--json`.
    struct Row: Encodable {
        var pair: String
        /// The folder of an account's calendar; nil for a pair of one calendar.
        var calendar: String?
        var invitation: Invitations.Invitation
        /// The file holding it.
        var file: String
        /// The command that accepts it (`--decline`, `--tentative` likewise).
        var answer: String
    }

    func run() async throws {
        let pairs = try global.loadConfig().select(pair: global.pair, all: global.all || global.pair == nil)
        var rows: [Row] = []
        for configuration in pairs where !configuration.localIsServer {
            let pair = try configuration.pair
            let own = try await OwnAddresses.resolve(given: addresses, pair: pair, offline: false)
            let files = configuration.localIsSingleFile ? [configuration.local] : ListCommand.icsFiles(in: configuration.local)
            for file in files {
                guard let data = try? Data(contentsOf: file), let calendar = try? ICalendarParser().parse(data).calendar else { continue }
                let folder = file.deletingLastPathComponent()
                let account = configuration.collections != .single && folder.standardizedFileURL != configuration.local.standardizedFileURL
                for invitation in Invitations.awaiting(in: calendar, addresses: own.addresses) {
                    var answer = "calgw event reply \(invitation.uid) --accept"
                    if pairs.count > 1 { answer += " --pair \(configuration.name)" }
                    if account { answer += " --collection \(folder.lastPathComponent)" }
                    // In the form --occurrence reads (2026-04-06T09:30), not as the file writes it.
                    if let start = invitation.occurrenceStart { answer += " --occurrence \(OccurrenceText.display(start))" }
                    rows.append(Row(pair: configuration.name, calendar: account ? folder.lastPathComponent : nil,
                                    invitation: invitation, file: file.path, answer: answer))
                }
            }
        }
        rows.sort { ($0.invitation.start ?? "", $0.invitation.uid) < ($1.invitation.start ?? "", $1.invitation.uid) }
        if output.json {
            try Terminal.printJSON(rows)
            return
        }
        if rows.isEmpty {
            if !output.quiet { Terminal.out("no invitations await your answer") }
            return
        }
        for row in rows {
            let invitation = row.invitation
            let when = (invitation.start ?? "-") + (invitation.recurring ? " (series)" : "")
            Terminal.out("\(when)  \(invitation.summary ?? "(no title)")  from \(invitation.organizer ?? "?")")
            Terminal.out("    \(row.answer)")
        }
    }
}
