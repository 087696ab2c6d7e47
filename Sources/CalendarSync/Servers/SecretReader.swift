import CalDAV
import Foundation
import HTTP
import ICalendar
import OAuth

/// Turns a ``SignIn`` into the HTTP authentication to use, reading the secret where its
/// ``SecretSource`` says (a command, an environment variable, a 0600 file). Secrets are read
/// when a client is made, and a token command when a request first needs the token; none is
/// ever printed or logged.
enum SecretReader {
    /// - Throws: ``ConnectionError``: `.commandFailed` (an authentication failure) when a
    ///   command fails, a usage code for a configuration mistake.
    static func authentication(_ signIn: SignIn, caFile: String? = nil) throws -> HTTPAuthentication {
        if let oauth = signIn.oauth {
            var configuration = HTTPClientConfiguration()
            configuration.caFile = caFile
            let session = OAuthSession(oauth, http: try HTTPClient(configuration: configuration))
            return .bearer(
                BearerTokenProvider(renewing: { refresh in try await session.accessToken(refresh: refresh) }))
        }
        if let tokenCommand = signIn.tokenCommand {
            return .bearer(BearerTokenProvider { try runSecretCommand(tokenCommand, what: "token") })
        }
        guard let username = signIn.username else {
            if signIn.password != nil {
                throw ConnectionError(
                    .passwordWithoutUsername, "a password is configured but no username",
                    recovery: "add username = \"...\" to the pair")
            }
            return .none
        }
        return .any(username: username, password: try signIn.password.map(secret) ?? "")
    }

    /// The secret a source holds.
    static func secret(_ source: SecretSource) throws -> String {
        switch source {
        case .command(let argv):
            return try runSecretCommand(argv, what: "password")
        case .environment(let name):
            guard let value = ProcessEnvironment.value(name) else {
                throw ConnectionError(
                    .variableNotSet, "the environment variable \(name) is not set",
                    recovery: "export it, or use password_command")
            }
            return value
        case .file(let path):
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw ConnectionError(
                    .secretFileUnreadable, "cannot read the password file \(path): \(String(cString: strerror(errno)))")
            }
            guard info.st_mode & 0o077 == 0 else {
                throw ConnectionError(
                    .secretFileExposed,
                    "the password file \(path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8)))",
                    recovery: "chmod 600 \(path)")
            }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return String(text.firstPhysicalLine)
        }
    }

    /// Runs `argv` (no shell) and returns the first line it prints; its output is never shown.
    static func runSecretCommand(_ argv: [String], what: String) throws -> String {
        guard let program = argv.first else { throw ConnectionError(.commandEmpty, "the \(what) command is empty") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + argv.dropFirst()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw ConnectionError(
                .commandFailed, "cannot run the \(what) command \(program): \(error.localizedDescription)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // A shell command line (`--password-command "pass show x"`) is named as written.
        let shown = argv.count == 3 && argv[0] == "/bin/sh" && argv[1] == "-c" ? argv[2] : program
        guard process.terminationStatus != 127 else {
            // env and sh answer 127 when the program is not found: a set-up problem, not a
            // refused password.
            throw ConnectionError(
                .commandNotFound, "the \(what) command (\(shown)) was not found: is it installed?",
                recovery: "install it, or give its full path in the config (or on the command line)")
        }
        guard process.terminationStatus == 0 else {
            throw ConnectionError(
                .commandFailed, "the \(what) command (\(shown)) exited with \(process.terminationStatus)",
                recovery: "run it by hand to see why")
        }
        let text = String(decoding: data, as: UTF8.self)
        return String(text.firstPhysicalLine)
    }
}
