import ArgumentParser

/// Options of the commands that work on pairs from the config file.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The config file (default: $CALGW_CONFIG, else ~/.config/calgw/config.toml).", valueName: "path"),
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
        do {
            return try ConfigFile.load(from: ConfigPaths().configFile(explicit: config))
        } catch let error as ConfigError {
            throw error.cliError
        }
    }
}
