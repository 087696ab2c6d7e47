/// Where a password or a token comes from; never the secret itself.
///
/// A pair's config names one (`password_command`, `password_env`, `password_file`), and so do
/// the options of the commands that reach a server before any pair names it. The secret is
/// read only when a client for the server is made, so commands that stay local never run a
/// password command.
public enum SecretSource: Equatable, Sendable {
    /// A program and its arguments (run without a shell); the first line it prints.
    case command([String])
    /// An environment variable holding the secret.
    case environment(String)
    /// A file only its owner may read (calgw refuses it otherwise) whose first line is the secret.
    case file(String)

    /// A shell command line given as text (`--password-command "pass show x"`), run with `sh -c`.
    public static func shell(_ commandLine: String) -> SecretSource { .command(shellArguments(commandLine)) }

    /// The argument vector that runs `commandLine` with `sh -c`.
    public static func shellArguments(_ commandLine: String) -> [String] { ["/bin/sh", "-c", commandLine] }
}
