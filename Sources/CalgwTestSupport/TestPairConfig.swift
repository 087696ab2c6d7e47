import Foundation

/// A test's config file with one `[pair.NAME]`: a vdir (or a server URL) on the local side, a
/// server collection or a `file://` vdir on the remote side, the journal, and the test
/// server's user with its password read from an environment variable, so that no test writes
/// the same TOML by hand.
public struct TestPairConfig: Sendable {
    /// The pair's name, as in `[pair.NAME]` and `--pair`.
    public var name: String
    /// A folder (written as its path) or a server URL.
    public var local: URL
    /// A server collection, or a `file://` vdir.
    public var remote: URL
    /// The journal file.
    public var journal: URL
    /// The user to sign in as; nil: no credentials (a `file://` remote, a server that needs none).
    public var username: String?
    /// The environment variable holding the password.
    public var passwordEnv: String
    /// More `key = value` lines, values written as TOML (`collections = "all"`, `max_response_size = 65536`).
    public var extra: [String]

    /// A pair between `local` and `remote`, signed in as `username` when given.
    public init(
        name: String = "test", local: URL, remote: URL, journal: URL, username: String? = nil,
        passwordEnv: String = "CALGW_TEST_PASSWORD", extra: [String] = []
    ) {
        self.name = name
        self.local = local
        self.remote = remote
        self.journal = journal
        self.username = username
        self.passwordEnv = passwordEnv
        self.extra = extra
    }

    /// A pair on `server`'s collection, signed in as its user.
    public init(
        name: String = "test", local: URL, collection: URL, journal: URL, server: TestServer,
        passwordEnv: String = "CALGW_TEST_PASSWORD", extra: [String] = []
    ) {
        self.init(
            name: name, local: local, remote: collection, journal: journal, username: server.username,
            passwordEnv: passwordEnv, extra: extra)
    }

    /// The TOML text.
    public var toml: String {
        func quoted(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var lines = [
            "[pair.\(name)]", "local = \(quoted(local.isFileURL ? local.path : local.absoluteString))",
            "remote = \(quoted(remote.absoluteString))",
        ]
        if let username { lines += ["username = \(quoted(username))", "password_env = \(quoted(passwordEnv))"] }
        lines.append("journal = \(quoted(journal.path))")
        return (lines + extra).joined(separator: "\n") + "\n"
    }

    /// Writes the config file.
    public func write(to url: URL) throws {
        try Data(toml.utf8).write(to: url)
    }
}
