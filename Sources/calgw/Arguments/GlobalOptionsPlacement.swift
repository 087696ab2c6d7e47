import ArgumentParser
import CalendarSync

/// Lets the options every command takes — `-c/--config PATH`, `-v/--verbose` (repeatable) and
/// `-q/--quiet` — stand before the command name as well as after it, as with vdirsyncer
/// (`vdirsyncer -c FILE sync`), khal, todoman and git.
///
/// ArgumentParser reads an option only after the name of the command that declares it, and
/// these options are declared by each command (through ``GlobalOptions`` and
/// ``OutputOptions``), not by `calgw` itself. So before parsing, ``arguments(_:root:)`` moves
/// the ones written before or between command names to just after the deepest command name:
///
///     calgw -c ~/work.toml -vv event add --summary X ...
///     calgw event add -c ~/work.toml -vv --summary X ...     (what is parsed)
///
/// The rules:
/// - Recognised before the command: `-c PATH`, `--config PATH`, `--config=PATH`, `-v`, `-vv`…,
///   `--verbose`, `-q`, `--quiet`, and clusters of `v` and `q` (`-vq`).
/// - Scanning stops at the deepest command's name (what follows it is already in place), at
///   `--`, at any other option (`--help`, `--version`, a `-c` without a value) and at the
///   first word that names no subcommand; from there on nothing is moved.
/// - Given both before and after the command name, the one after wins: a `-c` before is
///   dropped when there is one after; `-v` and `-q` are one setting, how much to say, so
///   `calgw -q sync -v` is verbose and `calgw -vv sync -q` quiet.
/// - A command that does not take an option drops it when it stands before the name:
///   `calgw -c ~/work.toml fmt x.ics` formats x.ics, so an alias `calgw -c ~/work.toml`
///   serves every command. Written after the name, an option the command lacks is an error
///   as before.
enum GlobalOptionsPlacement {
    /// `arguments` (without the program name) with the global options written before the
    /// command moved after it, ready for `parseAsRoot`.
    ///
    /// - Parameters:
    ///   - arguments: The command line after the program name.
    ///   - root: The root command, whose subcommands name the command path.
    /// - Returns: The same words, the global options before the command moved (or dropped,
    ///   see ``GlobalOptionsPlacement``); unchanged when there are none. Many file arguments
    ///   of a ``ManyPathsCommand`` are joined into a few words.
    static func arguments(_ arguments: [String], root: any ParsableCommand.Type = Calgw.self) -> [String] {
        var command = root
        var path: [String] = []
        var leading: [Given] = []
        var index = 0
        // Up to the deepest command's name: what follows it is already in place.
        while index < arguments.count, arguments[index] != "--", !command.configuration.subcommands.isEmpty {
            if let given = option(in: arguments, at: index) {
                leading.append(given)
                index += given.words.count
            } else if let subcommand = subcommand(of: command, named: arguments[index]) {
                path.append(arguments[index])
                command = subcommand
                index += 1
            } else {
                break
            }
        }
        var placed = arguments
        if !leading.isEmpty {
            let rest = Array(arguments[index...])
            let givenAfter = settings(in: rest)
            let accepted = settings(takenBy: command)
            let kept = leading.filter { accepted.contains($0.setting) && !givenAfter.contains($0.setting) }
            placed = path + kept.flatMap(\.words) + rest
        }
        return command is any ManyPathsCommand.Type ? ICSPaths.joiningRuns(placed, after: path.count) : placed
    }

    /// What a global option sets; two options setting the same thing override each other.
    enum Setting: Hashable {
        /// `-c/--config`.
        case config
        /// `-v/--verbose` and `-q/--quiet`: how much is said on stderr.
        case loudness
    }

    /// A global option found on the command line, with its value when it takes one.
    struct Given {
        var setting: Setting
        /// The words it took: `["-c", "x.toml"]`, `["--config=x.toml"]`, `["-vv"]`.
        var words: [String]
    }

    /// The global option starting at `index`, or nil when the word there is not one (or is
    /// `-c` / `--config` without a value).
    static func option(in arguments: [String], at index: Int) -> Given? {
        let word = arguments[index]
        switch word {
        case "-c", "--config":
            guard index + 1 < arguments.count else { return nil }
            let value = arguments[index + 1]
            // ArgumentParser takes no option-like word as a value; let it say so.
            if value.hasPrefix("-") && value != "-" { return nil }
            return Given(setting: .config, words: [word, value])
        case "--verbose", "--quiet":
            return Given(setting: .loudness, words: [word])
        default:
            if word.hasPrefix("--config=") { return Given(setting: .config, words: [word]) }
            if isLoudnessCluster(word) { return Given(setting: .loudness, words: [word]) }
            return nil
        }
    }

    /// `-v`, `-vvv`, `-q`, `-vq`: short flags that are all `v` or `q`.
    static func isLoudnessCluster(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && !word.hasPrefix("--")
            && word.dropFirst().allSatisfy { $0 == "v" || $0 == "q" }
    }

    /// The settings given in `words` (what follows the command name), up to `--`.
    static func settings(in words: [String]) -> Set<Setting> {
        var found: Set<Setting> = []
        for word in words {
            if word == "--" { break }
            if word == "-c" || word == "--config" || word.hasPrefix("--config=") { found.insert(.config) }
            if word == "--verbose" || word == "--quiet" || isLoudnessCluster(word) { found.insert(.loudness) }
        }
        return found
    }

    /// The global options `command` declares.
    static func settings(takenBy command: any ParsableCommand.Type) -> Set<Setting> {
        var taken: Set<Setting> = []
        if command is any ConfigFileCommand.Type { taken.insert(.config) }
        if command is any OutputCommand.Type { taken.insert(.loudness) }
        return taken
    }

    /// The subcommand of `command` called `name` (or by one of its aliases).
    static func subcommand(of command: any ParsableCommand.Type, named name: String) -> (any ParsableCommand.Type)? {
        command.configuration.subcommands.first { subcommand in
            let configuration = subcommand.configuration
            return (configuration.commandName ?? subcommand._commandName) == name
                || configuration.aliases.contains(name)
        }
    }
}

/// A command whose file arguments may come in thousands: joined into a few words before
/// parsing (`ICSPaths.joiningRuns(_:after:)`), taken apart by the command.
protocol ManyPathsCommand {}
