import ArgumentParser
import Foundation
import VDir

/// `calgw init`: adds a pair to the config file.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Add a pair (a vdir and a CalDAV collection) to the config file.",
        discussion: """
            The pair is appended to the config file as a [pair.NAME] table; what is already in \
            the file, comments included, is left as it is. The vdir folder is created if missing.

            Examples:
              calgw init --local ~/calendars/personal \\
                  --remote https://dav.example.com/dav/calendars/alice/personal/ \\
                  --username alice --password-command "pass show dav/alice"
              calgw init --pair work --local ~/calendars/work --remote https://... --password-env WORK_DAV_PASSWORD
            """
    )

    @Option(help: ArgumentHelp("The vdir: a folder of .ics files, one event or task per file.", valueName: "dir"),
            completion: .directory)
    var local: String

    @Option(help: ArgumentHelp("The CalDAV collection's URL.", valueName: "url"))
    var remote: String

    @Option(help: "The user name on the server.")
    var username: String?

    @Option(help: ArgumentHelp("A shell command that prints the password (run with sh -c).", valueName: "command"))
    var passwordCommand: String?

    @Option(help: ArgumentHelp("An environment variable that holds the password.", valueName: "name"))
    var passwordEnv: String?

    @Option(help: "The pair's name (default: the vdir folder's name).")
    var pair: String?

    @Option(help: ArgumentHelp("The config file (default: $CALGW_CONFIG, else ~/.config/calgw/config.toml).", valueName: "path"))
    var config: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if passwordCommand != nil && passwordEnv != nil {
            throw ValidationError("give --password-command or --password-env, not both")
        }
        guard let url = URL(string: remote), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--remote must be an http:// or https:// URL")
        }
    }

    func run() throws {
        let paths = ConfigPaths()
        let file = paths.configFile(explicit: config)
        let localURL = URL(fileURLWithPath: paths.expandTilde(local), isDirectory: true).standardizedFileURL
        let name = pair ?? Self.defaultName(for: localURL)
        let existing = FileManager.default.fileExists(atPath: file.path) ? try String(contentsOf: file, encoding: .utf8) : ""
        do {
            let current = try ConfigFile.parse(existing, url: file, paths: paths)
            if current.pairs.contains(where: { $0.name == name }) {
                throw CLIError("\(file.path) already has a pair named \"\(name)\"", hint: "choose another with --pair NAME, or edit the file", status: .usage)
            }
        } catch let error as ConfigError {
            throw CLIError("cannot add to \(file.path): \(error.message)", hint: "fix the file first", status: .usage)
        }
        var table = "[pair.\(TOMLText.key(name))]\n"
        table += "local = \(TOMLText.string(localURL.path))\n"
        table += "remote = \(TOMLText.string(remote))\n"
        if let username { table += "username = \(TOMLText.string(username))\n" }
        if let passwordCommand { table += "password_command = \(TOMLText.string(passwordCommand))\n" }
        if let passwordEnv { table += "password_env = \(TOMLText.string(passwordEnv))\n" }
        table += "conflict = \"merge\"\n"
        let separator = existing.isEmpty ? "" : (existing.hasSuffix("\n\n") ? "" : existing.hasSuffix("\n") ? "\n" : "\n\n")
        let updated = existing + separator + table
        // What is written must read back: validate the whole file before replacing it.
        do { _ = try ConfigFile.parse(updated, url: file, paths: paths) } catch let error as ConfigError {
            throw CLIError(error.message, hint: error.hint, status: .usage)
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        if !FileManager.default.fileExists(atPath: file.path) {
            FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try AtomicFile.write(Array(updated.utf8), to: file)
        try FileManager.default.createDirectory(at: localURL, withIntermediateDirectories: true)
        if output.json {
            try Terminal.printJSON(["pair": name, "config": file.path, "local": localURL.path, "remote": remote])
        } else if !output.quiet {
            Terminal.out("added pair \"\(name)\" to \(file.path)")
            Terminal.out("next: calgw sync --pair \(name)")
        }
    }

    /// The vdir folder's name in the alphabet pair names allow.
    static func defaultName(for folder: URL) -> String {
        let cleaned = folder.lastPathComponent.map { c -> Character in
            c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".") ? c : "-"
        }
        let name = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: "-."))
        return name.isEmpty ? "default" : name
    }
}
