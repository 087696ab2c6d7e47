import ArgumentParser
import CalendarSync
import Foundation

/// The `calgw` command: keeps a vdir in two-way sync with a CalDAV server.
@main
struct Calgw: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calgw",
        abstract: "Keep a directory of .ics files in two-way sync with a CalDAV server.",
        discussion: """
            Options that every command takes and that may also come before the command;
            given both before and after it, the one after wins:
              -c, --config <path>     The config file (default: $CALGW_CONFIG, else
                                      ~/.config/calgw/config.toml).
              -v, --verbose           Say more on stderr; repeat for more (-vv, -vvv).
              -q, --quiet             Print nothing but errors.

            Examples:
              calgw -c ~/work.toml sync
              calgw -v event add --summary Review --start 2026-04-01T14:00
              alias calgw-work='calgw -c ~/work.toml'
            """,
        version: CalgwBuild.text,
        subcommands: [
            FmtCommand.self,
            LintCommand.self,
            InitCommand.self,
            PullCommand.self,
            PushCommand.self,
            SyncCommand.self,
            StatusCommand.self,
            ExpandCommand.self,
            ListCommand.self,
            AlarmsCommand.self,
            EventCommand.self,
            InvitationsCommand.self,
            BusyCommand.self,
            FreeCommand.self,
            ItipCommand.self,
            DiscoverCommand.self,
            LoginCommand.self,
            LogoutCommand.self,
            WatchCommand.self,
        ]
    )

    /// Runs the command and owns the exit codes of CLI.md: 2 for usage errors (not
    /// ArgumentParser's 64), and the codes calgw's own errors give (``ErrorDescription``). `-c`, `-v` and `-q`
    /// written before the command name are first moved after it (``GlobalOptionsPlacement``).
    static func main() async {
        MemoryPolicy.apply()
        var verbose = false
        do {
            var command = try parseAsRoot(GlobalOptionsPlacement.arguments(Array(CommandLine.arguments.dropFirst())))
            if let command = command as? OutputCommand {
                LogOutput.bootstrap(command.output)
                verbose = command.output.verbose
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ExitWithStatus {
            Foundation.exit(error.status.rawValue)
        } catch  where ErrorDescription.isOwn(error) {
            let description = ErrorDescription(error)
            description.report(verbose: verbose)
            Foundation.exit(description.status.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                Self.exit(withError: error)  // --help, --version
            }
            Terminal.err(fullMessage(for: error))
            Foundation.exit(code == .validationFailure ? ExitStatus.usage.rawValue : ExitStatus.failure.rawValue)
        }
    }
}
