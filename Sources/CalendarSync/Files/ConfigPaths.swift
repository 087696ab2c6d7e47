import Foundation

/// Where calgw keeps its files, per the XDG base directory specification.
public struct ConfigPaths: Sendable {
    /// The variables the paths are read from; nil for the process's own.
    private let variables: [String: String]?

    /// The paths of the process's environment.
    public init() { variables = nil }

    /// The paths of `environment`.
    public init(environment: [String: String]) { variables = environment }

    /// The variable `name` of the environment the paths are read from.
    private func variable(_ name: String) -> String? {
        guard let variables else { return ProcessEnvironment.value(name) }
        return variables[name]
    }

    /// `$HOME`, else the account's home folder.
    public var home: URL {
        URL(fileURLWithPath: variable("HOME") ?? NSHomeDirectory(), isDirectory: true)
    }

    /// `--config`, else `CALGW_CONFIG`, else `$XDG_CONFIG_HOME/calgw/config.toml`.
    public func configFile(explicit: String?) -> URL {
        if let explicit { return URL(fileURLWithPath: expandTilde(explicit)) }
        if let env = variable("CALGW_CONFIG"), !env.isEmpty { return URL(fileURLWithPath: expandTilde(env)) }
        return xdg("XDG_CONFIG_HOME", fallback: ".config").appendingPathComponent("calgw/config.toml")
    }

    /// `$XDG_STATE_HOME/calgw/<pair>.sqlite`.
    public func defaultJournal(pair: String) -> URL {
        xdg("XDG_STATE_HOME", fallback: ".local/state").appendingPathComponent("calgw/\(pair).sqlite")
    }

    /// `$XDG_STATE_HOME/calgw/<pair>.token.json`: an OAuth sign-in's token.
    public func tokenFile(pair: String) -> URL {
        xdg("XDG_STATE_HOME", fallback: ".local/state").appendingPathComponent("calgw/\(pair).token.json")
    }

    /// `$XDG_STATE_HOME/calgw/alarms.json`: the alarms `watch` fired.
    public func firedAlarms() -> URL {
        xdg("XDG_STATE_HOME", fallback: ".local/state").appendingPathComponent("calgw/alarms.json")
    }

    /// `$XDG_CACHE_HOME/calgw`, where `list` keeps its index (a cache, deletable at any time);
    /// nil when `CALGW_LIST_INDEX=off` asks for a listing that reads every file.
    public var listIndexFolder: URL? {
        if variable("CALGW_LIST_INDEX") == "off" { return nil }
        return xdg("XDG_CACHE_HOME", fallback: ".cache").appendingPathComponent("calgw", isDirectory: true)
    }

    /// `path` with a leading `~` read as the home folder.
    public func expandTilde(_ path: String) -> String {
        if path == "~" { return home.path }
        if path.hasPrefix("~/") { return home.appendingPathComponent(String(path.dropFirst(2))).path }
        return path
    }

    private func xdg(_ name: String, fallback: String) -> URL {
        if let value = variable(name), value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        return home.appendingPathComponent(fallback, isDirectory: true)
    }
}
