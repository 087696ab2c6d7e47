import CalendarSync
import Foundation
import Synchronization

/// Crash testing: `CALGW_TEST_KILL_AFTER=k` sends the process a signal right after the k-th
/// side effect of a run, so tests can check that the next run finishes the work: SIGKILL, or
/// the one `CALGW_TEST_SIGNAL` names (`INT`, `TERM`; sent once, the run then stops at its next
/// safe point). Compiled into the builds the tests run only: a debug build, or one made with
/// `-DCALGW_FAULT_HOOKS` (CI's, `Scripts/test`); a release binary ignores the variables.
enum TestFaultHook {
    static func fromEnvironment() -> FaultHook? {
        #if DEBUG || CALGW_FAULT_HOOKS
            let environment = ProcessInfo.processInfo.environment
            guard let text = environment["CALGW_TEST_KILL_AFTER"], let k = Int(text), k > 0 else { return nil }
            let sig =
                switch environment["CALGW_TEST_SIGNAL"] {
                case "INT": SIGINT
                case "TERM": SIGTERM
                default: SIGKILL
                }
            // Each calendar of an account counts its own side effects: the signal is sent once.
            let sent = Mutex(false)
            return { @Sendable n in
                guard n == k || (sig == SIGKILL && n > k) else { return }
                guard
                    sig == SIGKILL
                        || sent.withLock({ done in
                            defer { done = true }; return !done
                        })
                else { return }
                kill(getpid(), sig)
                // The signal is handled by whichever thread does not block it, maybe a little
                // later: the run goes on once it has been (as it would under a real Ctrl-C).
                for _ in 0..<2000 where StopSignals.requested == nil { usleep(1000) }
            }
        #else
            return nil
        #endif
    }
}
