import ArgumentParser
import CalendarSync

/// The credential options of the commands that reach a server before any pair names it
/// (`discover`, `init`): a user name and one secret source — a password command, a password
/// variable or a token command. A pair in the config file has the same keys.
struct CredentialOptions: ParsableArguments {
    @Option(help: "The user name for Basic or Digest authentication.")
    var username: String?

    @Option(help: ArgumentHelp("A shell command that prints the password (run with sh -c).", valueName: "command"))
    var passwordCommand: String?

    @Option(help: ArgumentHelp("An environment variable that holds the password.", valueName: "name"))
    var passwordEnv: String?

    @Option(
        help: ArgumentHelp(
            "A shell command that prints an OAuth2 bearer token (run again once after a 401).", valueName: "command"))
    var tokenCommand: String?

    func validate() throws {
        if [passwordCommand, passwordEnv, tokenCommand].compactMap({ $0 }).count > 1 {
            throw ValidationError("give one of --password-command, --password-env and --token-command")
        }
    }

    /// How requests sign in with these options (without credentials when none is given).
    var signIn: SignIn {
        SignIn(
            username: username,
            password: passwordCommand.map(SecretSource.shell) ?? passwordEnv.map { .environment($0) },
            tokenCommand: tokenCommand.map(SecretSource.shellArguments))
    }

    /// The same options as config keys of a pair (`username = "…"` lines, TOML-quoted).
    var configLines: String {
        var lines = ""
        if let username { lines += "username = \(TOMLText.string(username))\n" }
        if let passwordCommand { lines += "password_command = \(TOMLText.string(passwordCommand))\n" }
        if let passwordEnv { lines += "password_env = \(TOMLText.string(passwordEnv))\n" }
        if let tokenCommand { lines += "token_command = \(TOMLText.string(tokenCommand))\n" }
        return lines
    }
}
