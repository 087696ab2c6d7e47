import ArgumentParser
import CalendarSync
import Failures
import Foundation

/// `calgw discover URL`: list the calendar collections behind a server, principal or home URL.
struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List the calendar collections behind a server or principal URL (RFC 6764).",
        discussion: """
            Starts at URL (a server root, a principal, a calendar home or one calendar), \
            follows /.well-known/caldav, current-user-principal and calendar-home-set, and \
            prints each calendar's href, display name, color and component types. \
            Exits 5 when the server refuses the credentials.

            A webcal:// or webcals:// URL, a URL ending in .ics, or a URL that turns out not to \
            be CalDAV but serves iCalendar is reported as a feed (a read-only subscription), \
            with how many items it holds and of which kinds.

            Examples:
              calgw discover https://dav.example.com/ --username alice --password-command "pass show dav/alice"
              calgw discover https://dav.example.com/ --username alice --password-env DAV_PASSWORD --json
              calgw discover https://graph.microsoft.com/v1.0/me/ --token-command "my-token-helper"
              calgw discover webcal://example.org/holidays.ics
            """
    )

    @OptionGroup var output: OutputOptions

    @Argument(help: "The server, principal, calendar-home or calendar URL.")
    var url: String

    @OptionGroup var credentials: CredentialOptions

    @OptionGroup var tls: TLSOptions

    @Option(
        help: ArgumentHelp(
            "The provider that speaks at URL, where its host does not say: \(ProviderNames.all.joined(separator: ", ")).",
            valueName: "api"))
    var api: String?

    struct Row: Encodable {
        var href: String
        var url: String
        var displayName: String?
        var color: String?
        var components: [String]
        var ctag: String?
        var syncToken: String?
        /// True when the URL is an iCalendar feed rather than a CalDAV collection.
        var subscription: Bool?
        /// A feed's item count (one per UID).
        var items: Int?
        /// False for a calendar the account may only read; nil when the server does not say.
        var writable: Bool?
    }

    func validate() throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            ["http", "https", "webcal", "webcals"].contains(scheme),
            parsed.host != nil
        else {
            throw ValidationError("URL must be an http://, https:// (or webcal:// feed) URL")
        }
        try credentials.validate()
        if (credentials.passwordCommand != nil || credentials.passwordEnv != nil) && credentials.username == nil {
            throw ValidationError("a password needs --username")
        }
    }

    func run() async throws {
        if let api, !ProviderNames.all.contains(api) {
            throw CLIError(
                "--api is \"\(api)\"", hint: "one of: \(ProviderNames.all.joined(separator: ", "))", status: .usage)
        }
        let server = try CalendarServer(settings: tls.server(signIn: credentials.signIn))
        let (target, webcal) = SubscriptionURL.remote(url) ?? (URL(string: url)!, false)
        if webcal || SubscriptionURL.looksLikeFeed(target) {
            return try render(try await feedRow(target, server: server))
        }
        let collections: [DiscoveredCalendar]
        do {
            collections = try await server.discover(target, api: api)
        } catch let error as any ExplainedError
            where error.errorCode == "authenticationFailed" && credentials.username == nil
        {
            // None were given: nothing was refused, the server wants some. (A token command
            // that failed is said as it is.)
            throw CLIError(
                "the server asks for a user name and password",
                hint: "give --username and --password-command (or --password-env)",
                status: .authenticationFailed)
        } catch {
            // Not CalDAV: perhaps a feed without .ics in its path.
            guard let row = try? await feedRow(target, server: server) else { throw error }
            return try render(row)
        }
        let rows = collections.map {
            Row(
                href: $0.href, url: $0.url.absoluteString, displayName: $0.displayName, color: $0.color,
                components: $0.components, ctag: $0.ctag, syncToken: $0.syncToken, writable: $0.writable)
        }
        if output.json {
            try Terminal.printJSON(rows)
            return
        }
        if rows.isEmpty {
            if !output.quiet { Terminal.out("no calendars found") }
            return
        }
        let table =
            [["HREF", "NAME", "COLOR", "ACCESS", "COMPONENTS"]]
            + rows.map {
                [
                    $0.href, $0.displayName ?? "-", $0.color ?? "-",
                    $0.writable.map { $0 ? "read-write" : "read-only" } ?? "-",
                    $0.components.isEmpty ? "-" : $0.components.joined(separator: ","),
                ]
            }
        let widths = (0..<5).map { column in table.map { $0[column].utf16.count }.max() ?? 0 }
        for line in table {
            Terminal.out(
                zip(line, widths).enumerated().map { index, cell in
                    index == 4 ? cell.0 : cell.0.padding(toLength: cell.1, withPad: " ", startingAt: 0)
                }.joined(separator: "  "))
        }
        if !output.quiet, let first = collections.first {
            for line in await server.notes(at: target, api: api, first: first) { Terminal.out(line) }
        }
    }
}
