import ArgumentParser

/// The credential options of `init` for a second server as `--local` (a pair of two
/// servers): a user name and one password source, written to the pair as `local_username`,
/// `local_password_command` or `local_password_env`, the local side's counterparts of
/// ``CredentialOptions``.
struct LocalCredentialOptions: ParsableArguments {
    @Option(help: "When --local is a server: the user name there.")
    var localUsername: String?

    @Option(
        help: ArgumentHelp("When --local is a server: a shell command that prints its password.", valueName: "command"))
    var localPasswordCommand: String?

    @Option(
        help: ArgumentHelp(
            "When --local is a server: an environment variable that holds its password.", valueName: "name"))
    var localPasswordEnv: String?

    /// Whether any of the options is given.
    var isEmpty: Bool { localUsername == nil && localPasswordCommand == nil && localPasswordEnv == nil }

    /// Checks the options against what `--local` is.
    /// - Throws: `ValidationError` for two password sources, or for any option when `--local`
    ///   is not a server.
    func check(localIsServer: Bool) throws {
        if localIsServer {
            if localPasswordCommand != nil && localPasswordEnv != nil {
                throw ValidationError("give one of --local-password-command and --local-password-env")
            }
        } else if !isEmpty {
            throw ValidationError("--local-username and --local-password-* apply only when --local is a server's URL")
        }
    }

    /// The same options as config keys of a pair (`local_username = "…"` lines, TOML-quoted).
    var configLines: String {
        var lines = ""
        if let localUsername { lines += "local_username = \(TOMLText.string(localUsername))\n" }
        if let localPasswordCommand { lines += "local_password_command = \(TOMLText.string(localPasswordCommand))\n" }
        if let localPasswordEnv { lines += "local_password_env = \(TOMLText.string(localPasswordEnv))\n" }
        return lines
    }
}
