import Foundation

/// Runs a program in the foreground on calgw's own terminal and waits for it, as `git commit`
/// runs an editor. Foundation's `Process` starts programs in a new session, without the
/// terminal, where an editor cannot read the keyboard.
public enum ForegroundProcess {
    /// - Returns: the exit status (128 + the signal for a program killed by one).
    /// - Throws: ``KernelEventError`` when the program cannot be started.
    public static func run(_ argv: [String]) throws -> Int32 {
        var pid: pid_t = 0
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        // While the editor has the terminal, ^C and ^\ are its own, as with git.
        let oldInt = signal(SIGINT, SIG_IGN), oldQuit = signal(SIGQUIT, SIG_IGN)
        defer { signal(SIGINT, oldInt); signal(SIGQUIT, oldQuit) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&pid, argv[0], nil, &attributes, &cArgs, environ)
        guard spawned == 0 else {
            throw KernelEventError(
                .cannotStart, "cannot start \(argv.joined(separator: " ")): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let low = status & 0x7f
        return low == 0 ? (status >> 8) & 0xff : 128 + low
    }
}
