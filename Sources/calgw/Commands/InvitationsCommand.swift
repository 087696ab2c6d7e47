import ArgumentParser
import CalendarSync
import Foundation

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

    @Option(
        name: .customLong("address"),
        help: ArgumentHelp(
            "Your calendar address (repeatable); default: each pair's server's for the account.",
            valueName: "mailto:…"))
    var addresses: [String] = []

    /// One row of `--json`: the invitation's fields at the top (what `jq '.[].uid'` reads),
    /// again under `invitation` as earlier versions gave them; every key always present.
    struct Row: Encodable {
        var pair: String
        /// The calendar's folder: an account's calendar, or the pair's own vdir.
        var calendar: String
        var invitation: Invitations.Invitation
        /// DTSTART in RFC 3339 with the offset in force then, as `list --json` gives it
        /// (floating times without an offset, dates as dates).
        var start: String?
        /// The occurrence an answer to one occurrence is for, in RFC 3339 likewise; nil for
        /// the whole event.
        var occurrence: String?
        /// The start's instant, to sort by.
        var instant: Int64
        /// The file holding it.
        var file: String
        /// The command that accepts it (`--decline`, `--tentative` likewise).
        var answer: String

        /// The row of `found` in `pair`; `named`: the answer names the pair (more than one was read).
        init(_ found: Invitations.Found, pair: String, named: Bool) {
            invitation = found.invitation
            answer = "calgw event reply \(invitation.uid) --accept"
            if named { answer += " --pair \(pair)" }
            if found.inAccountCalendar { answer += " --collection \(found.calendar)" }
            // In the form --occurrence reads (2026-04-06T09:30), not as the file writes it.
            if let start = invitation.occurrenceStart { answer += " --occurrence \(OccurrenceText.display(start))" }
            (self.pair, calendar, file) = (pair, found.calendar, found.file.path)
            (start, occurrence, instant) = (
                found.start?.text ?? invitation.start, found.occurrence, found.start?.instant ?? 0
            )
        }

        enum Keys: String, CodingKey {
            case pair, calendar, uid, summary, start, occurrence, organizer, recurring, invitation, file, answer
        }
        enum InvitationKeys: String, CodingKey { case uid, summary, start, zone, occurrence, organizer, recurring }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(pair, forKey: .pair)
            try c.encode(calendar, forKey: .calendar)
            try c.encode(invitation.uid, forKey: .uid)
            try c.encode(invitation.summary, forKey: .summary)
            try c.encode(start, forKey: .start)
            try c.encode(occurrence, forKey: .occurrence)
            try c.encode(invitation.organizer, forKey: .organizer)
            try c.encode(invitation.recurring, forKey: .recurring)
            var nested = c.nestedContainer(keyedBy: InvitationKeys.self, forKey: .invitation)
            try nested.encode(invitation.uid, forKey: .uid)
            try nested.encode(invitation.summary, forKey: .summary)
            try nested.encode(start, forKey: .start)
            try nested.encode(invitation.zone, forKey: .zone)
            try nested.encode(occurrence, forKey: .occurrence)
            try nested.encode(invitation.organizer, forKey: .organizer)
            try nested.encode(invitation.recurring, forKey: .recurring)
            try c.encode(file, forKey: .file)
            try c.encode(answer, forKey: .answer)
        }
    }

    /// Says on stderr that meetings name none of the person's addresses, and how to claim
    /// one sent to another address of theirs.
    static func tell(_ unclaimed: [(addresses: [String], uid: String)]) {
        let uids = unclaimed.map(\.uid)
        let shown = uids.prefix(5).joined(separator: ", ") + (uids.count > 5 ? ", …" : "")
        let addresses = Array(Set(unclaimed.flatMap(\.addresses))).sorted().joined(separator: ", ")
        Terminal.err(
            "note: \(uids.count) meeting\(uids.count == 1 ? "" : "s") in your calendars name\(uids.count == 1 ? "s" : "") none of your addresses (\(addresses)): \(shown)"
        )
        Terminal.err(
            "hint: if one was sent to another address of yours, `calgw invitations --address mailto:THAT` lists it "
                + "and `calgw event reply UID --address mailto:THAT --accept` answers it")
    }

    func run() async throws {
        let pairs = try global.loadConfig().select(pair: global.pair, all: global.all || global.pair == nil)
        var rows: [Row] = []
        /// Meetings that name none of the person's addresses, by the addresses looked for.
        var unclaimed: [(addresses: [String], uid: String)] = []
        for configuration in pairs where !configuration.localIsServer {
            let pair = try configuration.pair
            let own = try await OwnAddresses.resolve(given: addresses, pair: pair, offline: false)
            // Invitations in a calendar shared read-only cannot be answered there.
            if await CalendarAccess.isReadOnly(pair) == true {
                if !output.quiet {
                    Terminal.err(
                        "note: pair \(configuration.name) is a calendar shared read-only: its invitations cannot be answered there"
                    )
                }
                continue
            }
            let scan = Invitations.scan(pair, addresses: own.addresses)
            for file in scan.unreadable where !output.quiet {
                Terminal.err(
                    "warning: \(file.file):\(file.line): \(file.reason); its meetings are not listed "
                        + "(`calgw lint \(file.file)` shows the problems)")
            }
            unclaimed += scan.unclaimed.map { (own.addresses, $0) }
            rows += scan.found.map { Row($0, pair: configuration.name, named: pairs.count > 1) }
        }
        rows.sort { ($0.instant, $0.invitation.uid) < ($1.instant, $1.invitation.uid) }
        if !unclaimed.isEmpty && !output.quiet { Self.tell(unclaimed) }
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
            let when = (row.start ?? "-") + (invitation.recurring ? " (series)" : "")
            Terminal.out("\(when)  \(invitation.summary ?? "(no title)")  from \(invitation.organizer ?? "?")")
            Terminal.out("    \(row.answer)")
        }
    }
}
