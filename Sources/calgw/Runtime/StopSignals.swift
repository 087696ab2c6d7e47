import CalendarSync
import CStopSignal
import Foundation
import Synchronization

/// SIGINT (Ctrl-C) and SIGTERM (systemd stopping a unit, a logout) during `sync`, `pull` and
/// `push`: the first one stops the run at a safe point, where every write it made has its
/// journal row (``StopGate``), and the process then ends by that same signal (exit status 130
/// or 143 in a shell), so that the shell, a script's loop or systemd sees it was stopped. A
/// second one ends the process at once, which is as safe as a kill: the next run settles what
/// it left.
///
/// A thread watches the handler's flag: once it is set, the run is asked to stop, and the
/// process ends as soon as no write is in flight, also while the run waits for a server's
/// answer, which it does not wait for.
enum StopSignals {
    /// The gate every run of this process is given.
    static let gate = StopGate()
    private static let announced = Mutex(false)

    static func install() {
        cstop_install()
        Thread.detachNewThread { watch() }
    }

    /// The signal that asked for a stop, nil while none has.
    static var requested: Int32? {
        let sig = cstop_signal()
        return sig == 0 ? nil : sig
    }

    private static func watch() {
        while true {
            usleep(20_000)
            guard let sig = requested else { continue }
            gate.request(name(sig))
            if gate.closeIfIdle() { end(by: sig) }
        }
    }

    static func name(_ sig: Int32) -> String {
        switch sig {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(sig)"
        }
    }

    /// Ends the process by the signal that asked for a stop, once no write is in flight;
    /// returns when no signal came.
    static func endIfRequested() {
        guard let sig = requested else { return }
        gate.request(name(sig))
        while !gate.closeIfIdle() { usleep(10_000) }
        end(by: sig)
    }

    /// Says where the run stopped (once, whichever thread gets here first), then ends the
    /// process by `sig`.
    private static func end(by sig: Int32) -> Never {
        let first = announced.withLock { done in
            defer { done = true }
            return !done
        }
        if first {
            Terminal.reportError(
                "stopped by \(name(sig)) at a safe point; every write made so far is recorded",
                hint: "run the same command again to finish")
        }
        fflush(nil)
        cstop_raise_default(sig)
        // The signal's default action ends the process; should it be blocked, end anyway.
        exit(128 + sig)
    }
}
