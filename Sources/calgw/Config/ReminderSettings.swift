import CalendarSync
import TOMLKit

/// The config's reminder keys, read by `watch`: which program to run when an alarm goes off,
/// and how late an alarm missed while nothing watched (the machine asleep, `watch` stopped)
/// still goes off. Top-level keys, beside the `[pair.NAME]` tables:
///
/// ```toml
/// notify_command = ["notify-send", "--app-name=calgw", "{summary}", "{start}"]
/// missed_alarms = "1h"
/// ```
struct ReminderSettings: Equatable {
    /// `notify_command`; nil (the default): `watch` fires no alarm and reads none.
    var notifyCommand: NotifyCommand?
    /// `missed_alarms`, in seconds (default one hour): an alarm whose time passed unseen goes
    /// off once when `watch` sees it, if no more than this late; an older one is let go.
    var missedWindow: Int64 = 3600

    /// The top-level keys this reads.
    static let keys: Set<String> = ["notify_command", "missed_alarms"]

    /// Reads the keys of `table`, the whole config file.
    /// - Throws: `ConfigError` naming the key: a notify_command that is not a non-empty array
    ///   of strings (a string is refused: it would need a shell) or has an unknown
    ///   placeholder, a missed_alarms that is not a length of time.
    static func read(_ table: TOMLTable, file: String) throws -> ReminderSettings {
        var settings = ReminderSettings()
        if let value = table["notify_command"] {
            guard let array = value.array, case let argv = array.compactMap({ $0.string }), argv.count == array.count,
                !argv.isEmpty
            else {
                throw ConfigError(
                    "\(file): notify_command must be an array of strings, "
                        + "like [\"notify-send\", \"{summary}\", \"{start}\"]",
                    hint: value.string != nil
                        ? "its arguments are passed to the program without a shell: split the command into words" : nil)
            }
            do { settings.notifyCommand = try NotifyCommand(arguments: argv) } catch {
                throw ConfigError(
                    "\(file): notify_command \(error.message)",
                    hint: "placeholders: {\(NotifyCommand.placeholders.joined(separator: "}, {"))}")
            }
        }
        if let value = table["missed_alarms"] {
            guard let text = value.string, let duration = try? DurationArgument.parse(text, option: "missed_alarms")
            else {
                throw ConfigError(
                    "\(file): missed_alarms must be a length of time, like \"1h\"",
                    hint: "write 30m, 1h, 1h30m, 2d or PT1H; \"0s\" lets every missed alarm go")
            }
            settings.missedWindow = duration.approximateSeconds
        }
        return settings
    }
}
