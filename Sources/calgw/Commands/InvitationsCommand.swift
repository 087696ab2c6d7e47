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
            "Your calendar address (repeatable), besides each pair's server's for the account.",
            valueName: "mailto:…"))
    var addresses: [String] = []

    /// One row of `--json`.
    typealias Row = Invitations.Row

    /// Says on stderr that meetings name none of the person's addresses, the first of them by
    /// UID, and how to claim one sent to another address of theirs.
    static func tell(_ unclaimed: Invitations.Unclaimed) {
        let count = unclaimed.count
        let shown = unclaimed.first.joined(separator: ", ") + (count > unclaimed.first.count ? ", …" : "")
        let addresses = unclaimed.addresses.joined(separator: ", ")
        Terminal.err(
            "note: \(count) meeting\(count == 1 ? "" : "s") in your calendars name\(count == 1 ? "s" : "") none of your addresses (\(addresses)): \(shown)"
        )
        Terminal.err(
            "hint: if one was sent to another address of yours, `calgw invitations --address mailto:THAT` lists it "
                + "and `calgw event reply UID --address mailto:THAT --accept` answers it")
    }

    func run() async throws {
        let config = try global.loadConfig()
        let chosen = try config.select(pair: global.pair, all: global.all || global.pair == nil)
        let pairs = try chosen.filter { !$0.localIsServer }.map { try $0.pair }
        let cache = ConfigPaths().listIndexFolder.map { ListingCache(folder: $0) }
        let (found, failure) = await Invitations.awaiting(in: pairs, given: addresses, cache: cache)
        var rows: [Row] = []
        for one in found where !output.quiet {
            if output.verbose { Terminal.err("\(one.pair.name): \(one.scan.read) files read") }
            // Invitations in a calendar shared read-only cannot be answered there.
            if one.readOnly {
                Terminal.err(
                    "note: pair \(one.pair.name) is a calendar shared read-only: its invitations cannot be answered there"
                )
            }
            for file in one.scan.unreadable {
                Terminal.err(
                    "warning: \(file.file):\(file.line): \(file.reason); its meetings are not listed "
                        + "(`calgw lint \(file.file)` shows the problems)")
            }
        }
        if let failure { throw failure }
        for one in found {
            // The answer works as printed: `event reply` needs --pair once the config has two
            // pairs, and the addresses the invitation was found by.
            rows += one.scan.found.map {
                Row($0, pair: one.pair.name, named: config.pairs.count > 1, addresses: addresses)
            }
        }
        rows.sort { ($0.instant, $0.invitation.uid) < ($1.instant, $1.invitation.uid) }
        let unclaimed = Invitations.Unclaimed(found)
        if unclaimed.count > 0 && !output.quiet { Self.tell(unclaimed) }
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
