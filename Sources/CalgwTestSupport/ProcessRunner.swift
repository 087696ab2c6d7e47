import Foundation

/// Runs an outside program (a python reference, the built `calgw`, a server script) and
/// collects what it printed. Output goes through temporary files, so a chatty program can
/// never block on a full pipe.
public enum ProcessRunner {
    /// What a program did: how it ended and what it printed.
    public struct Result: Sendable {
        /// The exit status, or 128 plus the number of the signal that ended it, as a shell gives
        /// it.
        public var status: Int32
        /// What the program wrote to its standard output.
        public var stdout: Data
        /// What the program wrote to its standard error.
        public var stderr: Data

        /// The standard output as UTF-8 text (lossy).
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// The standard error as UTF-8 text (lossy).
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// How long a program may run before it is killed and the test fails with what it printed.
    public static let defaultDeadline: TimeInterval = 300

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`.
    ///
    /// Started with posix_spawn and reaped with waitpid on its own pid: Foundation's
    /// `Process.waitUntilExit` was seen to miss a child's exit when many processes come and go
    /// at once, and a test must never hang on a program that has ended, nor on one that does
    /// not end: the program runs in a process group of its own, killed whole (its children
    /// with it) once `deadline` seconds have passed.
    /// - Throws: when the program cannot be started; ``ProcessFailure`` with the command, the
    ///   deadline and what it printed when it ran past its deadline.
    public static func run(
        _ executable: String, _ arguments: [String] = [], stdin: Data? = nil,
        environment: [String: String]? = nil, currentDirectory: URL? = nil,
        deadline: TimeInterval = defaultDeadline
    ) throws -> Result {
        var argv = executable.contains("/") ? [executable] + arguments : ["/usr/bin/env", executable] + arguments
        if let currentDirectory {
            argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", currentDirectory.path] + argv
        }
        var env = TestPaths.childEnvironment
        if let environment { env.merge(environment) { $1 } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inURL = folder.appendingPathComponent("in"), outURL = folder.appendingPathComponent("out"),
            errURL = folder.appendingPathComponent("err")
        try (stdin ?? Data()).write(to: inURL)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin == nil ? "/dev/null" : inURL.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A clean signal mask and default handlers, whatever the test process has set.
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        guard spawned == 0 else {
            throw ProcessFailure(
                command: argv.joined(separator: " "), status: -1, stderr: String(cString: strerror(spawned)))
        }
        var status: Int32 = 0
        let end = Date().addingTimeInterval(deadline)
        var pause: UInt32 = 200
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped == -1 && errno != EINTR) { break }
            if Date() >= end {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                let printed = [outURL, errURL].map {
                    String(decoding: (try? Data(contentsOf: $0)) ?? Data(), as: UTF8.self).suffix(2000)
                }
                throw ProcessFailure(
                    command: argv.joined(separator: " "), status: -1,
                    stderr: "killed after \(Int(deadline)) s without ending; it printed:\n\(printed[0])\n\(printed[1])")
            }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
        let signal = status & 0x7f
        return Result(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
            stdout: try Data(contentsOf: outURL), stderr: try Data(contentsOf: errURL))
    }

    /// Runs a python script with `python3`, giving `input` as JSON on stdin and decoding JSON
    /// from its stdout.
    /// - Throws: `ProcessFailure` with the script's stderr when it exits non-zero.
    public static func python<Input: Encodable, Output: Decodable>(_ script: URL, input: Input, as: Output.Type) throws
        -> Output
    {
        let result = try run("python3", [script.path], stdin: try JSONEncoder().encode(input))
        guard result.status == 0 else {
            throw ProcessFailure(
                command: "python3 \(script.lastPathComponent)", status: result.status, stderr: result.stderrText)
        }
        return try JSONDecoder().decode(Output.self, from: result.stdout)
    }
}

/// An outside program exited with an error.
public struct ProcessFailure: Error, CustomStringConvertible {
    /// The command line, as run.
    public var command: String
    /// The exit status, -1 when the program could not start or ran past its deadline.
    public var status: Int32
    /// What the program wrote to its standard error (or why it could not start, or what it printed
    /// before it was killed).
    public var stderr: String

    /// The command, its status and the end of its standard error.
    public var description: String { "\(command) exited with \(status): \(stderr.suffix(2000))" }
}
