import CalDAV
import Foundation
import ICalendar

/// Turns where a pair's secret comes from (a command, an environment variable, a 0600 file)
/// into the HTTP authentication to use. Secrets are read when needed and never printed.
enum Credentials {
    /// - Throws: `CLIError` (exit 5 when a command fails, 2 for a configuration mistake).
    static func authentication(username: String?, password: PairConfiguration.SecretSource?,
                               tokenCommand: [String]?) throws -> HTTPAuthentication {
        if let tokenCommand {
            return .bearer(BearerTokenProvider { try runSecretCommand(tokenCommand, what: "token") })
        }
        guard let username else {
            if password != nil {
                throw CLIError("a password is configured but no username", hint: "add username = \"...\" to the pair", status: .usage)
            }
            return .none
        }
        return .any(username: username, password: try password.map(secret) ?? "")
    }

    /// The secret a source holds.
    static func secret(_ source: PairConfiguration.SecretSource) throws -> String {
        switch source {
        case .command(let argv):
            return try runSecretCommand(argv, what: "password")
        case .environment(let name):
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw CLIError("the environment variable \(name) is not set", hint: "export it, or use password_command", status: .usage)
            }
            return value
        case .file(let path):
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw CLIError("cannot read the password file \(path): \(String(cString: strerror(errno)))", status: .usage)
            }
            guard info.st_mode & 0o077 == 0 else {
                throw CLIError("the password file \(path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8)))",
                               hint: "chmod 600 \(path)", status: .usage)
            }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return String(text.firstPhysicalLine)
        }
    }

    /// Runs `argv` (no shell) and returns the first line it prints; its output is never shown.
    static func runSecretCommand(_ argv: [String], what: String) throws -> String {
        guard let program = argv.first else { throw CLIError("the \(what) command is empty", status: .usage) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + argv.dropFirst()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw CLIError("cannot run the \(what) command \(program): \(error.localizedDescription)", status: .authenticationFailed)
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // A shell command line (`--password-command "pass show x"`) is named as written.
        let shown = argv.count == 3 && argv[0] == "/bin/sh" && argv[1] == "-c" ? argv[2] : program
        guard process.terminationStatus != 127 else {
            // env and sh answer 127 when the program is not found: a set-up problem, not a
            // refused password.
            throw CLIError("the \(what) command (\(shown)) was not found: is it installed?",
                           hint: "install it, or give its full path in the config (or on the command line)", status: .usage)
        }
        guard process.terminationStatus == 0 else {
            throw CLIError("the \(what) command (\(shown)) exited with \(process.terminationStatus)",
                           hint: "run it by hand to see why", status: .authenticationFailed)
        }
        let text = String(decoding: data, as: UTF8.self)
        return String(text.firstPhysicalLine)
    }

    /// A shell command line given on the command line (`--password-command "pass show x"`).
    static func shell(_ command: String) -> [String] { ["/bin/sh", "-c", command] }
}
