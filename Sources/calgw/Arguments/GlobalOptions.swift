import ArgumentParser
import CalendarSync

/// Options of the commands that work on pairs from the config file.
///
/// `-c/--config` may also stand before the command name (`calgw -c ~/work.toml sync`): see
/// ``GlobalOptionsPlacement``.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: [.customShort("c"), .long],
        help: ArgumentHelp(
            "The config file (default: $CALGW_CONFIG, else ~/.config/calgw/config.toml).", valueName: "path"),
        completion: .file(extensions: ["toml"]))
    var config: String?

    @Option(help: "The pair to work on; may be left out when the config has one pair.")
    var pair: String?

    @Flag(help: "Work on every pair in the config file.")
    var all = false

    func validate() throws {
        if all && pair != nil { throw ValidationError("--all and --pair exclude each other") }
    }

    /// The config file, loaded.
    func loadConfig() throws -> ConfigFile {
        try ConfigFile.load(from: ConfigPaths().configFile(explicit: config))
    }
}

/// A command that reads the config file and so takes `-c/--config PATH`: through
/// ``GlobalOptions``, or (`init`) an option of its own. ``GlobalOptionsPlacement`` hands a
/// `-c` written before the command name to these only; the others drop it.
protocol ConfigFileCommand {}

extension AlarmsCommand: ConfigFileCommand {}
extension BusyCommand: ConfigFileCommand {}
extension FreeCommand: ConfigFileCommand {}
extension EventAddCommand: ConfigFileCommand {}
extension EventDeleteCommand: ConfigFileCommand {}
extension EventEditCommand: ConfigFileCommand {}
extension EventOpenCommand: ConfigFileCommand {}
extension EventReplyCommand: ConfigFileCommand {}
extension InvitationsCommand: ConfigFileCommand {}
extension ItipCommand: ConfigFileCommand {}
extension InitCommand: ConfigFileCommand {}
extension ListCommand: ConfigFileCommand {}
extension LoginCommand: ConfigFileCommand {}
extension LogoutCommand: ConfigFileCommand {}
extension PullCommand: ConfigFileCommand {}
extension PushCommand: ConfigFileCommand {}
extension StatusCommand: ConfigFileCommand {}
extension SyncCommand: ConfigFileCommand {}
extension WatchCommand: ConfigFileCommand {}
