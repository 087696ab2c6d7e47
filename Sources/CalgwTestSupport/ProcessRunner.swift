import Foundation
import Synchronization

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

    /// How long a program may run before it is killed and the test fails with what it printed:
    /// a guard against a hang, long enough for an oracle that takes a minute alone to end on a
    /// slow machine whose cores the whole suite shares.
    public static let defaultDeadline: TimeInterval = 600

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`, and waits for
    /// it without holding a thread for Swift's tasks (as many as cores): a thread of its own
    /// waits for the program's end while the task is suspended, so the tests that await
    /// beside it run.
    ///
    /// Started with posix_spawn and reaped with waitpid on its own pid: Foundation's
    /// `Process.waitUntilExit` was seen to miss a child's exit when many processes come and go
    /// at once, and a test must never hang on a program that has ended, nor on one that does
    /// not end: the program runs in a process group of its own, killed whole (its children
    /// with it) once `deadline` seconds have passed, or when the task is cancelled (a test past
    /// its time limit).
    /// - Throws: when the program cannot be started; ``ProcessFailure`` with the command, the
    ///   deadline and what it printed when it ran past its deadline; `CancellationError` when
    ///   the task was cancelled.
    public static func run(
        _ executable: String, _ arguments: [String] = [], stdin: Data? = nil,
        environment: [String: String]? = nil, currentDirectory: URL? = nil,
        deadline: TimeInterval = defaultDeadline
    ) async throws -> Result {
        let child = try Child(
            executable, arguments, stdin: stdin, environment: environment, currentDirectory: currentDirectory,
            deadline: deadline)
        defer { child.remove() }
        let status = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: child.waitForExit()) }.start()
            }
        } onCancel: {
            child.stop(.cancelled)
        }
        return try child.result(status)
    }

    /// ``run(_:_:stdin:environment:currentDirectory:deadline:)`` for a caller that cannot await
    /// (a server started for a `static let`, a cleanup in `defer`): the same program, started and
    /// ended the same way, waited for on the caller's thread.
    public static func runBlocking(
        _ executable: String, _ arguments: [String] = [], stdin: Data? = nil,
        environment: [String: String]? = nil, currentDirectory: URL? = nil,
        deadline: TimeInterval = defaultDeadline
    ) throws -> Result {
        let child = try Child(
            executable, arguments, stdin: stdin, environment: environment, currentDirectory: currentDirectory,
            deadline: deadline)
        defer { child.remove() }
        return try child.result(child.waitForExit())
    }

    /// Runs a python script with `python3`, giving `input` as JSON on stdin and decoding JSON
    /// from its stdout.
    /// - Throws: `ProcessFailure` with the script's stderr when it exits non-zero.
    public static func python<Input: Encodable, Output: Decodable>(_ script: URL, input: Input, as: Output.Type)
        async throws -> Output
    {
        let result = try await run("python3", [script.path], stdin: try JSONEncoder().encode(input))
        guard result.status == 0 else {
            throw ProcessFailure(
                command: "python3 \(script.lastPathComponent)", status: result.status, stderr: result.stderrText)
        }
        return try JSONDecoder().decode(Output.self, from: result.stdout)
    }
}

/// A program started by ``ProcessRunner``: its pid, its own process group, and the folder of
/// the files its standard input, output and error go through.
private final class Child: Sendable {
    /// Whether the program runs, has ended, or was killed (and why).
    enum State {
        case running, ended, pastDeadline, cancelled
    }

    let argv: [String]
    let pid: pid_t
    let folder: URL
    let deadline: TimeInterval
    private let state = Mutex(State.running)
    var outURL: URL { folder.appendingPathComponent("out") }
    var errURL: URL { folder.appendingPathComponent("err") }

    /// Starts the program in a process group of its own, with a clean signal mask and default
    /// handlers whatever the test process has set.
    init(
        _ executable: String, _ arguments: [String], stdin: Data?, environment: [String: String]?,
        currentDirectory: URL?, deadline: TimeInterval
    ) throws {
        var argv = executable.contains("/") ? [executable] + arguments : ["/usr/bin/env", executable] + arguments
        if let currentDirectory {
            argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", currentDirectory.path] + argv
        }
        var env = TestPaths.childEnvironment
        if let environment { env.merge(environment) { $1 } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let inURL = folder.appendingPathComponent("in")
        do {
            try (stdin ?? Data()).write(to: inURL)
            pid = try Self.spawn(
                argv, environment: env, stdin: stdin == nil ? "/dev/null" : inURL.path,
                stdout: folder.appendingPathComponent("out").path, stderr: folder.appendingPathComponent("err").path)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        self.argv = argv
        self.folder = folder
        self.deadline = deadline
    }

    private static func spawn(
        _ argv: [String], environment: [String: String], stdin: String, stdout: String, stderr: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        guard spawned == 0 else {
            throw ProcessFailure(
                command: argv.joined(separator: " "), status: -1, stderr: String(cString: strerror(spawned)))
        }
        return pid
    }

    /// Waits until the program ends, on the caller's thread (a thread of its own for an
    /// awaited run), killing its group once the deadline has passed; returns its wait status.
    /// It looks with `WNOHANG` between sleeps of 0.2 ms doubling to 5 ms, so the deadline
    /// needs no timer on a shared queue, which a busy test process may starve. The program
    /// is reaped under the lock ``stop(_:)`` kills under: its pid, and its group's, are never
    /// killed once someone else may have them.
    func waitForExit() -> Int32 {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(max(deadline, 0) * 1e9)
        var pause: UInt32 = 200
        while true {
            var status: Int32 = 0
            let reaped = state.withLock { state -> Bool in
                let answer = waitpid(pid, &status, WNOHANG)
                guard answer == pid || (answer == -1 && errno != EINTR) else { return false }
                if state == .running { state = .ended }
                return true
            }
            if reaped { return status }
            if DispatchTime.now().uptimeNanoseconds >= end { stop(.pastDeadline) }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
    }

    /// Kills the program's process group, unless the program has ended.
    func stop(_ reason: State) {
        state.withLock { state in
            guard state == .running else { return }
            state = reason
            kill(-pid, SIGKILL)
        }
    }

    /// What the program did, from its wait status.
    /// - Throws: ``ProcessFailure`` with what it printed when it was killed at its deadline;
    ///   `CancellationError` when it was killed for a cancelled task.
    func result(_ status: Int32) throws -> ProcessRunner.Result {
        switch state.withLock({ $0 }) {
        case .cancelled:
            throw CancellationError()
        case .pastDeadline:
            let printed = [outURL, errURL].map {
                String(decoding: (try? Data(contentsOf: $0)) ?? Data(), as: UTF8.self).suffix(2000)
            }
            throw ProcessFailure(
                command: argv.joined(separator: " "), status: -1,
                stderr: "killed after \(Int(deadline)) s without ending; it printed:\n\(printed[0])\n\(printed[1])")
        case .running, .ended:
            let signal = status & 0x7f
            return ProcessRunner.Result(
                status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
                stdout: try Data(contentsOf: outURL), stderr: try Data(contentsOf: errURL))
        }
    }

    /// Removes the folder of the program's input and output.
    func remove() { try? FileManager.default.removeItem(at: folder) }
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
